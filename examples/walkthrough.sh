#!/usr/bin/env bash
# A first session with the API, as written in the README: issue a key, validate a request,
# schedule it as JSON, schedule the spreadsheet exports as CSV, schedule it as a background job,
# and read the usage.
# Run it from the checkout, against a running service on the same database:
#   npm start            (in another terminal)
#   examples/walkthrough.sh
# BASE_URL (default http://localhost:8080) and DATABASE_URL choose the service and database.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_URL="${BASE_URL:-http://localhost:8080}"

echo "== 1. Issue a key (operator command, prints the key alone)"
KEY=$(npx --no-install volunteer-scheduler keys issue --user walkthrough --name "Walkthrough" --description "README walkthrough")
echo "key for user ${KEY%%.*} issued"

echo "== 2. Validate a request"
curl -sS --fail-with-body -X POST "$BASE_URL/api/validate" \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d @examples/request.json
echo

echo "== 3. Schedule it (JSON)"
curl -sS --fail-with-body -X POST "$BASE_URL/api/schedule" \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d @examples/request.json
echo

echo "== 4. Schedule the spreadsheet exports (CSV, times in Chicago)"
curl -sS --fail-with-body -X POST "$BASE_URL/api/schedule/csv" \
  -H "Authorization: Bearer $KEY" \
  -F volunteers=@examples/volunteers.csv -F shifts=@examples/shifts.csv -F timezone=America/Chicago \
  -F min_rest_hours=8 -F max_shifts_per_day=2 \
  -o /dev/null -w 'HTTP %{http_code}, %{size_download} bytes of schedule\n'

echo "== 5. Schedule it in the background: submit a job, follow its events, fetch its result"
JOB=$(curl -sS --fail-with-body -X POST "$BASE_URL/api/jobs" \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d @examples/request.json)
echo "$JOB"
JOB_ID=$(printf '%s' "$JOB" | sed -E 's/.*"id":"([^"]+)".*/\1/')
curl -sS --fail-with-body -N "$BASE_URL/api/jobs/$JOB_ID/events" -H "Authorization: Bearer $KEY" | grep '^event: end'
curl -sS --fail-with-body "$BASE_URL/api/jobs/$JOB_ID/result" -H "Authorization: Bearer $KEY" \
  -o /dev/null -w 'HTTP %{http_code}, %{size_download} bytes of job result\n'

echo "== 6. Read the usage"
curl -sS --fail-with-body "$BASE_URL/api/usage?limit=5" -H "Authorization: Bearer $KEY"
echo
