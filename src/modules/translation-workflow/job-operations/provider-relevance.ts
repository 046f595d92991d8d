/**
 * How well a provider (a linguist or a vendor) fits jobs, for the provider suggestions
 * (docs/job-files-and-operations.md, "Provider suggestions"). Pure, table-tested.
 *
 * Each criterion compares the job's value with the provider's list for it:
 * - an empty list means "no restriction": the criterion adds nothing and excludes nothing;
 * - a list that holds the value adds the criterion's weight (languages: the full weight for the
 *   exact locale, half for the same language in another region, `de` for `de_at`);
 * - a list that does not hold it makes the provider not fit the job;
 * - a job without a value (a project without client, a job without workflow step) is neutral.
 */

export interface ProviderProfile {
  sourceLocales: readonly string[];
  targetLocales: readonly string[];
  /** Uids of workflow steps, clients, domains and subdomains the provider works on. */
  workflowSteps: readonly string[];
  clients: readonly string[];
  domains: readonly string[];
  subDomains: readonly string[];
}

export interface JobFacts {
  sourceLang: string;
  targetLang: string;
  workflowStep: string | null;
  client: string | null;
  domain: string | null;
  subDomain: string | null;
}

export const RELEVANCE_WEIGHTS = { targetLang: 8, sourceLang: 4, workflowStep: 4, client: 2, domain: 1, subDomain: 1 } as const;

const normalize = (locale: string) => locale.toLowerCase().replace(/-/g, '_');
const language = (locale: string) => normalize(locale).split('_')[0]!;

/** The weight a locale list earns for `locale`: 0 unrestricted, null excluded. */
function localeScore(list: readonly string[], locale: string, weight: number): number | null {
  if (list.length === 0) return 0;
  const wanted = normalize(locale);
  if (list.some((l) => normalize(l) === wanted)) return weight;
  if (list.some((l) => language(l) === language(locale))) return weight / 2;
  return null;
}

/** The weight a reference list earns for `value`: 0 unrestricted or no value, null excluded. */
function referenceScore(list: readonly string[], value: string | null, weight: number): number | null {
  if (list.length === 0 || value === null) return 0;
  return list.includes(value) ? weight : null;
}

/** The provider's relevance for one job, or null when it does not fit the job. */
export function jobRelevance(profile: ProviderProfile, job: JobFacts): number | null {
  const scores = [
    localeScore(profile.targetLocales, job.targetLang, RELEVANCE_WEIGHTS.targetLang),
    localeScore(profile.sourceLocales, job.sourceLang, RELEVANCE_WEIGHTS.sourceLang),
    referenceScore(profile.workflowSteps, job.workflowStep, RELEVANCE_WEIGHTS.workflowStep),
    referenceScore(profile.clients, job.client, RELEVANCE_WEIGHTS.client),
    referenceScore(profile.domains, job.domain, RELEVANCE_WEIGHTS.domain),
    referenceScore(profile.subDomains, job.subDomain, RELEVANCE_WEIGHTS.subDomain),
  ];
  if (scores.some((score) => score === null)) return null;
  return (scores as number[]).reduce((a, b) => a + b, 0);
}

/** The relevance for several jobs: the sum, or null when the provider does not fit one of them. */
export function relevance(profile: ProviderProfile, jobs: readonly JobFacts[]): number | null {
  let total = 0;
  for (const job of jobs) {
    const score = jobRelevance(profile, job);
    if (score === null) return null;
    total += score;
  }
  return total;
}

export interface Ranked<T> {
  provider: T;
  name: string;
  score: number | null;
}

/**
 * The two lists of ProviderListDtoV2: `relevant` holds the providers that fit every job, best
 * first (ties by name), at most `limit` of them; `all` holds every provider, those that fit first
 * in the same order, then the rest by name.
 */
export function rankProviders<T>(candidates: readonly Ranked<T>[], limit: number | undefined): { all: T[]; relevant: T[] } {
  const order = (a: Ranked<T>, b: Ranked<T>) => (b.score ?? -1) - (a.score ?? -1) || a.name.localeCompare(b.name);
  const sorted = [...candidates].sort(order);
  const fitting = sorted.filter((c) => c.score !== null);
  return { all: sorted.map((c) => c.provider), relevant: fitting.slice(0, limit ?? fitting.length).map((c) => c.provider) };
}
