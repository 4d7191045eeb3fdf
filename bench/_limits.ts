// The benches drive a few users and one address far past the production request limits; their
// servers get limits out of reach, so the limiter still runs (its cost is part of the figures)
// but never refuses.
export const BENCH_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_API_BY_USER: '1000000000/60',
  RATE_LIMIT_API_BY_ADDRESS: '1000000000/60',
  RATE_LIMIT_AUTH_BY_USERNAME: '1000000000/60',
  RATE_LIMIT_AUTH_BY_ADDRESS: '1000000000/60',
  MAX_EVENT_QUEUES_PER_USER: '100000',
};
