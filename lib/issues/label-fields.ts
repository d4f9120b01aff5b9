// The label fields a CreateLabelOption / EditLabelOption sets, shared by repository and organization labels.
import type { CreateLabelOption, EditLabelOption } from '../../model/schemas/index.ts';
import type { EntityManager } from '@mikro-orm/core';
import { Label, type ILabel } from '../../model/label.ts';
import { notFound } from '../http/errors.ts';
import { rowId } from '../http/query-values.ts';
import { normalizeLabelColor } from './label-color.ts';

type Name = (raw: string) => string;

/** Fields of a new label; the owner columns (repoId / orgId) are the caller's. */
export function newLabelFields(b: CreateLabelOption, name: Name = (n) => n) {
  const archived = !!b.is_archived;
  return {
    name: name(b.name),
    exclusive: !!b.exclusive,
    color: normalizeLabelColor(b.color),
    description: b.description ?? '',
    isArchived: archived,
    archivedAt: archived ? new Date() : null,
  };
}

/** Only the fields the body carries change (Forgejo would also unarchive when `is_archived` is absent). */
export function applyLabelEdit(label: ILabel, b: EditLabelOption, name: Name = (n) => n): void {
  if (b.name !== undefined) label.name = name(b.name);
  if (b.exclusive !== undefined) label.exclusive = b.exclusive;
  if (b.color !== undefined) label.color = normalizeLabelColor(b.color);
  if (b.description !== undefined) label.description = b.description;
  if (b.is_archived !== undefined && b.is_archived !== label.isArchived) {
    label.isArchived = b.is_archived;
    label.archivedAt = b.is_archived ? new Date() : null;
  }
}

/** Orders of `?sort=` for label lists (Forgejo's label sort options); the default is by name. */
const SORTS: Record<string, Record<string, 'asc' | 'desc'>> = {
  reversealphabetically: { name: 'desc' },
  leastissues: { numIssues: 'asc' },
  mostissues: { numIssues: 'desc' },
};

export function labelOrder(sort: string | null) {
  return { ...(SORTS[sort ?? ''] ?? { name: 'asc' }), id: 'asc' as const };
}

/**
 * `{id}` is a label id of the owner (a repository or an organization), or for GET also a label name
 * (Forgejo's GetLabel). A label of another owner is not found.
 */
export async function findOwnedLabel(
  em: EntityManager,
  owner: { repoId: number; orgId: number },
  raw: string,
  byName: boolean,
): Promise<ILabel> {
  const id = /^-?\d+$/.test(raw) ? (rowId(raw) ?? 0) : null;
  const label = id !== null ? await em.findOne(Label, { ...owner, id }) : byName ? await em.findOne(Label, { ...owner, name: raw }) : null;
  if (!label) throw notFound();
  return label;
}
