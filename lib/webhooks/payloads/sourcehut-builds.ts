// builds.sr.ht job submissions (Forgejo's services/webhook/sourcehut/builds.go): a GraphQL `submit`
// mutation carrying the repository's build manifest, read from git at the pushed commit and adjusted
// to build that commit. Only pushes and new refs start builds; other events are not for this service.
import * as yaml from 'js-yaml';
import { readObject } from '../../../git/cat-file.ts';
import { entryAt } from '../../../git/lookup.ts';
import { refType, shortRef } from './format.ts';
import { UnsupportedEvent, type Convertor, type PRepo } from './types.ts';

export interface BuildsMeta {
  manifest_path: string;
  visibility: string;
  secrets: boolean;
}
interface Variables {
  manifest: string;
  tags: string[] | null;
  note: string;
  secrets: boolean;
  execute: boolean;
  visibility: string;
}
export interface BuildsPayload {
  query?: string;
  error?: string;
  variables: Variables;
}

export const SUBMIT_MUTATION = `mutation (
	$manifest: String!
	$tags: [String!]
	$note: String!
	$secrets: Boolean!
	$execute: Boolean!
	$visibility: Visibility!
) {
	submit(
		manifest: $manifest
		tags: $tags
		note: $note
		secrets: $secrets
		execute: $execute
		visibility: $visibility
	) {
		id
	}
}`;

export interface BuildsContext {
  appUrl: string;
  /** Forgejo's [repository] DISABLE_HTTP_GIT: builds then clone over SSH. */
  httpGitDisabled: boolean;
  repoPath(fullName: string): string;
}

/** A manifest problem the user should see in the delivery (Forgejo puts it in the payload's `error`). */
class ManifestError extends Error {}

async function readManifest(ctx: BuildsContext, repo: PRepo, commit: string, manifestPath: string): Promise<unknown> {
  const entry = await entryAt(ctx.repoPath(repo.full_name), commit, manifestPath);
  if (!entry || entry.type !== 'blob') throw new ManifestError(`could not open manifest "${manifestPath}"`);
  const blob = await readObject(ctx.repoPath(repo.full_name), entry.oid);
  if (!blob) throw new ManifestError(`could not read manifest "${manifestPath}"`);
  try {
    return yaml.load(blob.content.toString('utf8'));
  } catch (e) {
    if (e instanceof yaml.YAMLException) throw new ManifestError(`could not decode manifest "${manifestPath}"`);
    throw e;
  }
}

/** Forgejo's adjustManifest: submitter environment, and the repository source pinned to the commit. */
function adjustManifest(ctx: BuildsContext, repo: PRepo, commit: string, ref: string, raw: unknown): string {
  const doc = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const { sources: rawSources, environment: rawEnv, ...rest } = doc;
  const sources = Array.isArray(rawSources) ? rawSources.map(String) : [];
  const environment: Record<string, unknown> =
    rawEnv !== null && typeof rawEnv === 'object' ? { ...(rawEnv as Record<string, unknown>) } : {};
  environment.BUILD_SUBMITTER = 'forgejo';
  environment.BUILD_SUBMITTER_URL = ctx.appUrl;
  environment.GIT_REF = ref;
  const at = sources.findIndex((s) => s === repo.clone_url || s === repo.ssh_url);
  if (at >= 0) sources[at] = `${sources[at]}#${commit}`;
  else sources.push(`${repo.private || ctx.httpGitDisabled ? repo.ssh_url : repo.clone_url}#${commit}`);
  // Go's yaml.v3 writes the struct's fields first, then map keys sorted, indented by four spaces.
  const sorted = (o: Record<string, unknown>) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  return yaml.dump({ sources, environment: sorted(environment), ...sorted(rest) }, { indent: 4, lineWidth: -1 });
}

async function submission(
  ctx: BuildsContext,
  meta: BuildsMeta,
  repo: PRepo,
  commit: string,
  ref: string,
  note: string,
): Promise<BuildsPayload> {
  let manifest: string;
  try {
    manifest = adjustManifest(ctx, repo, commit, ref, await readManifest(ctx, repo, commit, meta.manifest_path));
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    // Go's omitempty keeps a zero struct: the variables are there, empty.
    return {
      error: `${repo.full_name}:${ref} ${e.message}`,
      variables: { manifest: '', tags: null, note: '', secrets: false, execute: false, visibility: '' },
    };
  }
  return {
    query: SUBMIT_MUTATION,
    variables: {
      manifest,
      tags: [repo.full_name, `${refType(ref)}/${shortRef(ref)}`, meta.manifest_path],
      note,
      secrets: meta.secrets,
      execute: true,
      visibility: meta.visibility || 'PRIVATE',
    },
  };
}

const unsupported = (): never => {
  throw new UnsupportedEvent('unsupported webhook event');
};

export function buildsConvertor(ctx: BuildsContext, meta: BuildsMeta): Convertor<BuildsPayload> {
  return {
    create: (p) => submission(ctx, meta, p.repository, p.sha, p.ref, `${p.ref_type} ${shortRef(p.ref)} created`),
    push: (p) => (p.head_commit ? submission(ctx, meta, p.repository, p.head_commit.id, p.ref, p.head_commit.message) : unsupported()),
    delete: unsupported,
    fork: unsupported,
    issue: unsupported,
    issueComment: unsupported,
    pullRequest: unsupported,
    review: unsupported,
    repository: unsupported,
    release: unsupported,
    wiki: unsupported,
  };
}
