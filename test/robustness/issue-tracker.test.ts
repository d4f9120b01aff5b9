// No 5xx, and no 2xx for malformed input, on the issue, pull request and milestone rows.
import { routes } from '../../routes.table.ts';
import { fuzzSuite } from '../helpers/fuzz-suite.ts';
import { isIssueTrackerRow } from '../helpers/fuzz.ts';

fuzzSuite('robustness: issue tracker rows', routes.filter(isIssueTrackerRow));
