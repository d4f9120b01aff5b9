// Labels of a migration whose source is another instance of this API (Forgejo's services/migrations
// gitea_downloader.go GetLabels, gitea_uploader.go CreateLabels), read through lib/migrate-remote.ts.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config.ts';
import { Label } from '../../model/label.ts';
import { normalizeLabelColor } from '../issues/index.ts';
import { all, bool, str, type ApiSource } from './migrate-remote.ts';

export interface SourceLabel {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  isArchived: boolean;
}

/** A colour the source sent, or white where it is not one (Forgejo's uploader does the same). */
const colorOf = (c: string) => (/^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.test(c.trim()) ? normalizeLabelColor(c) : '#ffffff');

/** All labels of the source repository; 422 when the source does not answer them. */
export async function fetchSourceLabels(cfg: Config, src: ApiSource): Promise<SourceLabel[]> {
  return all(cfg, src, '/labels', 'labels', (l) => {
    const name = str(l.name);
    if (!name) return null;
    return {
      name,
      color: colorOf(str(l.color)),
      description: str(l.description),
      exclusive: bool(l.exclusive),
      isArchived: bool(l.is_archived),
    };
  });
}

/** Inserts the labels and answers their ids by name (the first of equal names wins). */
export async function insertLabels(em: EntityManager, repoId: number, labels: SourceLabel[]): Promise<Map<string, number>> {
  const now = new Date();
  const rows = labels.map((l) =>
    em.create(Label, {
      repoId,
      orgId: 0,
      name: l.name,
      color: l.color,
      description: l.description,
      exclusive: l.exclusive,
      isArchived: l.isArchived,
      archivedAt: l.isArchived ? now : null,
    }),
  );
  await em.flush();
  const ids = new Map<string, number>();
  for (const r of rows) if (!ids.has(r.name)) ids.set(r.name, r.id);
  return ids;
}
