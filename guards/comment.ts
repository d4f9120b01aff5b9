// Comment assignment (spec, path resolution, comment paths): unknown comment 404; the comment's issue
// must belong to the addressed repository and be readable, else 404. Issue comments are not stored
// yet, so every comment id is unknown.
import { NOT_FOUND } from '../lib/errors.ts';
import { deny, step } from './types.ts';

export const COMMENT = step('COMMENT', 'loader', ['repo'], ['comment'], () => deny(404, NOT_FOUND, { errors: [] }));
