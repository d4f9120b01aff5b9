// `GET /repositories/{id}` (Forgejo's GetByID): the repository with that id, 404 when it does not
// exist or the caller (with the token's kind taken into account) has no access to it at all.
import { repoByIdLoader } from './by-id.ts';

export const REPO_ID = repoByIdLoader('REPO_ID', 'id');
