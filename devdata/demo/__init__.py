"""The demo organisation, one story module per area, run in this order by `seed_demo`:
`people` → `coaching` → `scorecards` → `ratings` → `cadence` → `peers` → `feedback`
→ `rollout` → `people.seed_imports` → `audit` → `people.seed_new_starters` →
`cadence.queue_notifications`. Each step is idempotent. See devdata/README.md."""
