// No 5xx, and no 2xx for malformed input, on the /repos/{username}/{reponame}/... rows other
// than issues, pulls and milestones (issue-tracker.test.ts has those).
import { routes } from '../../routes.table.ts';
import { fuzzSuite } from '../helpers/fuzz-suite.ts';
import { isIssueTrackerRow } from '../helpers/fuzz.ts';

fuzzSuite(
  'robustness: repository rows',
  routes.filter((r) => r.path.startsWith('/repos/{username}/{reponame}') && !isIssueTrackerRow(r)),
);
