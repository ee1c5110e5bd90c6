import { MARK_TIMING } from '../../nodes/shared/http/markRow';

/**
 * Each run of the node settles its charge marks a settle time after its last write (1 s in n8n,
 * against database round trips of a few milliseconds). The test store's round trips are at most
 * 10 ms, so the suites settle after 150 ms and stay quick; the tests of marks under load
 * (test/node/marksUnderLoad.test.ts, test/unit/chargeMarks.test.ts) and `npm run bench:marks`
 * run with n8n's own settle time.
 */
export const N8N_SETTLE_MS = MARK_TIMING.settleMs;
MARK_TIMING.settleMs = 150;
