export * from './errors.ts';
export {
  assertSafeArg,
  gitEnv,
  gitStream,
  runGit,
  spawnGit,
  DEFAULT_TIMEOUT_MS,
  type RunOptions,
  type RunResult,
  type SpawnOptions,
  type StreamOptions,
} from './exec.ts';
export { isFullOid, isOidPrefix, zeroOid } from './oid.ts';
export { assertBranchName, assertFullRef, assertTagName, isValidBranchName, isValidRefName, isValidTagName } from './refname.ts';
export {
  BatchReader,
  closeAll,
  closeBatch,
  getBatch,
  readInfo,
  readObject,
  type GitObject,
  type ObjectInfo,
  type ObjectType,
} from './cat-file.ts';
export * from './repo.ts';
export * from './commits.ts';
export * from './trees.ts';
export * from './identity.ts';
export { validatePath } from './paths.ts';
export {
  createAnnotatedTag,
  createBranchRef,
  createLightweightTag,
  deleteRef,
  listBranches,
  renameBranchRef,
  updateRef,
  type BranchHead,
} from './refs.ts';
export { commitFiles, type CommitFilesOptions, type CommitResult, type FileMode, type FileOp } from './write.ts';
export * from './merge.ts';
export * from './http.ts';
export * from './archive.ts';
export { Lru } from './lru.ts';
export { entryAt, lastCommitFor, lookupRef, readRef, readTree, type Entry } from './lookup.ts';
export { NOTES_REF, readNote, removeNote, setNote, type Note } from './notes.ts';
export { applyPatch, type ApplyPatchOptions } from './apply.ts';
export { listTags, parseTagObject, readTagObject, tagInfo, type TagInfo, type TagObject } from './tags.ts';
