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
  readonly rev: string;
  constructor(rev: string) {
    super(`revision not found: ${rev}`);
    this.rev = rev;
    this.name = 'RevNotFoundError';
  }
}

export class RepoExistsError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`repository already exists: ${path}`);
    this.path = path;
    this.name = 'RepoExistsError';
  }
}

/** A compare-and-swap ref update lost: the ref moved (or is locked by) a concurrent writer. */
export class RefConflictError extends Error {
  readonly ref: string;
  readonly detail: string;
  constructor(ref: string, detail: string) {
    super(`ref ${ref} was updated concurrently: ${detail}`);
    this.ref = ref;
    this.detail = detail;
    this.name = 'RefConflictError';
  }
}

export class RefExistsError extends Error {
  readonly ref: string;
  constructor(ref: string) {
    super(`ref already exists: ${ref}`);
    this.ref = ref;
    this.name = 'RefExistsError';
  }
}

export class RefNotFoundError extends Error {
  readonly ref: string;
  constructor(ref: string) {
    super(`ref not found: ${ref}`);
    this.ref = ref;
    this.name = 'RefNotFoundError';
  }
}

export class InvalidRefNameError extends Error {
  readonly ref: string;
  constructor(ref: string) {
    super(`invalid ref name: ${JSON.stringify(ref)}`);
    this.ref = ref;
    this.name = 'InvalidRefNameError';
  }
}

export class InvalidPathError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`invalid path ${JSON.stringify(path)}: ${reason}`);
    this.path = path;
    this.name = 'InvalidPathError';
  }
}

export class FileExistsError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`file already exists: ${path}`);
    this.path = path;
    this.name = 'FileExistsError';
  }
}

export class FileNotFoundError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`file not found: ${path}`);
    this.path = path;
    this.name = 'FileNotFoundError';
  }
}

/** The caller's expected blob sha for an update/delete does not match the parent commit. */
export class ShaMismatchError extends Error {
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  constructor(path: string, expected: string, actual: string) {
    super(`sha does not match for ${path}: expected ${expected}, found ${actual}`);
    this.path = path;
    this.expected = expected;
    this.actual = actual;
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
  readonly detail: string;
  constructor(detail: string) {
    super(`patch does not apply: ${detail}`);
    this.detail = detail;
    this.name = 'PatchApplyError';
  }
}
