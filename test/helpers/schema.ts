// Response-shape assertions against Forgejo's types (model/schemas, transcribed from its API description).
import * as assert from 'uvu/assert';
import { ApiSchemas, type ApiSchemaName } from '../../model/schemas/index.ts';
import { validateResponse } from '../../model/schemas/validate.ts';
import type { Res } from './client.ts';

export function valid(name: ApiSchemaName, value: unknown): void {
  const r = validateResponse(ApiSchemas[name], value);
  assert.ok(r.ok, `${name}: ${JSON.stringify(r)} ${JSON.stringify(value)}`);
}

/** A list answer: an array whose every element has the shape. */
export function validList(name: ApiSchemaName, res: Res): void {
  assert.ok(Array.isArray(res.json), res.text);
  for (const v of res.json) valid(name, v);
}

/** A 200 list answer whose every element has the shape. */
export function validOkList(name: ApiSchemaName, res: Res): void {
  assert.is(res.status, 200, res.text);
  validList(name, res);
}
