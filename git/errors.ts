// Error types of the git layer. Callers map these to HTTP statuses; anything else is a 500.

export class GitError extends Error {
  readonly code: number | null;
  readonly stderr: string;
  readonly args: string[];
  constructor(message: string, code: number | null, stderr: string, args: string[]) {
    super(message);
    this.name = 'GitError';
    this.code = code;
    this.stderr = stderr;
    this.args = args;
  }
}

export class GitTimeoutError extends GitError {
  constructor(args: string[], timeoutMs: number, stderr: string) {
    super(`git ${args[0] ?? ''} timed out after ${timeoutMs} ms`, null, stderr, args);
    this.name = 'GitTimeoutError';
  }
}

/** A value that must not reach git's argv (option-like or containing NUL/newline). */
export class GitArgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitArgError';
  }
}

export class RevNotFoundError extends Error {
  constructor(readonly rev: string) {
    super(`revision not found: ${rev}`);
    this.name = 'RevNotFoundError';
  }
}

export class RepoExistsError extends Error {
  constructor(readonly path: string) {
    super(`repository already exists: ${path}`);
    this.name = 'RepoExistsError';
  }
}

/** A compare-and-swap ref update lost: the ref moved (or is locked by) a concurrent writer. */
export class RefConflictError extends Error {
  constructor(readonly ref: string, readonly detail: string) {
    super(`ref ${ref} was updated concurrently: ${detail}`);
    this.name = 'RefConflictError';
  }
}

export class RefExistsError extends Error {
  constructor(readonly ref: string) {
    super(`ref already exists: ${ref}`);
    this.name = 'RefExistsError';
  }
}

export class RefNotFoundError extends Error {
  constructor(readonly ref: string) {
    super(`ref not found: ${ref}`);
    this.name = 'RefNotFoundError';
  }
}

export class InvalidRefNameError extends Error {
  constructor(readonly ref: string) {
    super(`invalid ref name: ${JSON.stringify(ref)}`);
    this.name = 'InvalidRefNameError';
  }
}

export class InvalidPathError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`invalid path ${JSON.stringify(path)}: ${reason}`);
    this.name = 'InvalidPathError';
  }
}

export class FileExistsError extends Error {
  constructor(readonly path: string) {
    super(`file already exists: ${path}`);
    this.name = 'FileExistsError';
  }
}

export class FileNotFoundError extends Error {
  constructor(readonly path: string) {
    super(`file not found: ${path}`);
    this.name = 'FileNotFoundError';
  }
}

/** The caller's expected blob sha for an update/delete does not match the parent commit. */
export class ShaMismatchError extends Error {
  constructor(readonly path: string, readonly expected: string, readonly actual: string) {
    super(`sha does not match for ${path}: expected ${expected}, found ${actual}`);
    this.name = 'ShaMismatchError';
  }
}

export class InvalidIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidIdentityError';
  }
}

/** A commit message git refuses to store (commit-tree rejects NUL bytes). */
export class InvalidMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMessageError';
  }
}

/** A patch that does not apply to the tree it was given. */
export class PatchApplyError extends Error {
  constructor(readonly detail: string) {
    super(`patch does not apply: ${detail}`);
    this.name = 'PatchApplyError';
  }
}
