import { InvalidRefNameError } from './errors.ts';

// A reimplementation of git's check_refname_format (refs.c) as used by
// `git check-ref-format --allow-onelevel`, without spawning a process.
const BAD_CHAR = /[\x00-\x20\x7f~^:?*[\\]/;

export function isValidRefName(name: string): boolean {
  if (name === '' || name === '@') return false;
  if (BAD_CHAR.test(name) || name.includes('..') || name.includes('@{') || name.endsWith('.')) return false;
  for (const component of name.split('/')) {
    if (component === '' || component.startsWith('.') || component.endsWith('.lock')) return false;
  }
  return true;
}

/** `git branch` additionally refuses a leading '-' and the name HEAD. */
export function isValidBranchName(name: string): boolean {
  return isValidRefName(name) && !name.startsWith('-') && name !== 'HEAD';
}

export function isValidTagName(name: string): boolean {
  return isValidRefName(name) && !name.startsWith('-');
}

/** A full ref name under refs/ that is safe to put in argv. */
export function assertFullRef(ref: string): void {
  if (!ref.startsWith('refs/') || !isValidRefName(ref)) throw new InvalidRefNameError(ref);
}

export function assertBranchName(name: string): void {
  if (!isValidBranchName(name)) throw new InvalidRefNameError(name);
}

export function assertTagName(name: string): void {
  if (!isValidTagName(name)) throw new InvalidRefNameError(name);
}
