// Path parameters the spec restricts to a few words ("`ball_type` is one of tarball, zipball,
// bundle"; "`diffType` is diff or patch"): any other value names no route, so 404.
import { NOT_FOUND } from '../lib/http/errors.ts';
import { deny, step } from './types.ts';

export function ONE_OF(param: string, ...values: string[]) {
  if (!param || values.length === 0) throw new Error('ONE_OF needs a parameter and at least one value');
  return step(`ONE_OF(${param}: ${values.join('|')})`, 'gate', [], [], (s) =>
    values.includes(s.params[param] ?? '') ? null : deny(404, NOT_FOUND, { errors: [] }),
  );
}
