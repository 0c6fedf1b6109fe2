// Scheduler tunables short enough for tests to see polls, lease takeovers and retries in seconds.

export const FAST_SCHEDULER = {
  QUARRY_SCHEDULER_POLL_MS: '200',
  QUARRY_SCHEDULER_LEASE_MS: '1500',
  QUARRY_SCHEDULER_RETRY_MS: '100',
  QUARRY_SCHEDULER_MAX_ATTEMPTS: '3',
};
