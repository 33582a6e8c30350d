import fc from 'fast-check';

// fast-check reads no environment variables itself: CI uses the fixed defaults, `npm run fuzz`
// and local runs can raise FC_NUM_RUNS or pin FC_SEED.
fc.configureGlobal({
  seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : 42,
  numRuns: process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 100,
});
