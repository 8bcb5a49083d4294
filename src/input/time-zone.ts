// IANA time zone names: which the runtime knows, and a "did you mean" among them. Used by the
// CSV upload's timezone field and by a JSON request's rules.timezone.
import { NameSuggester, type HintBudget } from './did-you-mean.js';
import { quoteName } from './entry-caps.js';

let canonical: ReadonlySet<string> | undefined;
/** The runtime's canonical zone names (Intl.supportedValuesOf), read once. */
function canonicalZones(): ReadonlySet<string> {
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  return canonical;
}

/**
 * True when `zone` is an IANA time zone name this runtime knows: a canonical name, or one Intl
 * accepts besides (UTC, Etc/UTC, links such as US/Central). Offsets such as +02:00, which newer
 * runtimes accept as time zones, are not IANA names and are refused.
 */
export function isTimeZone(zone: string): boolean {
  if (canonicalZones().has(zone)) return true;
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What a message says of a name that is not a time zone: the examples, and the closest known name if there is one. */
export function notATimeZone(label: string, zone: string, budget?: HintBudget): string {
  const hint = new NameSuggester(['UTC', ...canonicalZones()], budget).didYouMean(zone);
  return `${label} ${quoteName(zone)} is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default)${hint}`;
}
