// No 5xx, and no 2xx for malformed input, on every row outside /repos/{username}/{reponame}.
import { routes } from '../../routes.table.ts';
import { fuzzSuite } from '../helpers/fuzz-suite.ts';

fuzzSuite(
  'robustness: other rows',
  routes.filter((r) => !r.path.startsWith('/repos/{username}/{reponame}')),
);
