import { defineEntity, p, type EntityManager, type InferEntity } from '@mikro-orm/core';

// Actions secrets and variables (Forgejo's models/secret/secret.go and models/actions/variable.go).
// A row belongs to exactly one scope: a user or organization (`ownerId`, `repoId` 0) or a repository
// (`ownerId` 0, `repoId`). Names are stored upper-case, so the unique (owner, repo, name) is the
// case-insensitive uniqueness Forgejo has.

/** The column width; Forgejo's varchar(255) makes a longer name a database error, here a 400. */
export const NAME_MAX = 255;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Forgejo reserves its own and GitHub's environment prefixes (models/secret ValidateName). */
const RESERVED_PREFIX = /^(FORGEJO_|GITEA_|GITHUB_)/i;

/** Forgejo's secret name rule; the message it answers (400) when the name is refused, else null. */
export function secretNameError(name: string): string | null {
  return name.length <= NAME_MAX && NAME.test(name) && !RESERVED_PREFIX.test(name) ? null : 'invalid secret name';
}

/** Variables share the secret rule (same message) and may not be called CI (services/actions/variables.go). */
export function variableNameError(name: string): string | null {
  return secretNameError(name) ?? (name.toUpperCase() === 'CI' ? 'env name cannot be ci' : null);
}

/** Forgejo's ReserveLineBreakForTextarea: values are stored with LF line endings. */
export const normalizeLineBreaks = (value: string) => value.replaceAll('\r\n', '\n');

/** An actions secret; `data` is the SecretBox ciphertext and is never sent back. */
export const ActionSecret = defineEntity({
  name: 'ActionSecret',
  tableName: 'action_secret',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().default(0).index(),
    repoId: p.integer().default(0).index(),
    name: p.string().length(NAME_MAX),
    data: p.text().hidden().lazy(true, false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['ownerId', 'repoId', 'name'] }],
});
export type IActionSecret = InferEntity<typeof ActionSecret>;

/** An actions variable: plain configuration, readable by whoever may manage it. */
export const ActionVariable = defineEntity({
  name: 'ActionVariable',
  tableName: 'action_variable',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.integer().default(0).index(),
    repoId: p.integer().default(0).index(),
    name: p.string().length(NAME_MAX),
    data: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['ownerId', 'repoId', 'name'] }],
});
export type IActionVariable = InferEntity<typeof ActionVariable>;

/** Where a secret or variable lives: one of the two ids is 0. */
export interface ActionScope {
  ownerId: number;
  repoId: number;
}

/** Forgejo drops a scope's secrets and variables with its repository, user or organization. */
export async function deleteActionConfig(em: EntityManager, where: { ownerId: number } | { repoId: number }): Promise<void> {
  await em.nativeDelete(ActionSecret, where);
  await em.nativeDelete(ActionVariable, where);
}
