/**
 * How each Synth of the library argues in the simulated debate: the words of a question that call for it,
 * what it weighs, how it leans and the sentences it is made of.
 *
 * This is the simulator's own material, keyed by the slugs of the contract's `SynthCatalog`; the catalogue
 * itself (names, roles, voices) is read from the contract. A Synth the table does not know yet argues from
 * its catalogue role and voice (`personaOf`). Templates take `{subject}` (what the board decides) and
 * `{figure}` (a number quoted in the session's context); a template with `{figure}` is only used when the
 * context has one.
 * @module
 */
import type { Synth } from './types.js';

export interface Persona {
  /** Lower-case words of a question that call for this Synth when the service staffs a board. */
  keywords: readonly string[];
  /** What the Synth weighs, as a noun phrase that reads after "weigh" and "brings". */
  lens: string;
  /** Weights of support, conditional support and opposition for the Synth's first position. */
  lean: readonly [number, number, number];
  /** How rarely the Synth is talked round, from 0 (readily) to 1 (never). */
  stubbornness: number;
  /** Observations in the Synth's voice. */
  claims: readonly string[];
  /** Conditions the Synth attaches, as statements that can stand in a memo. */
  conditions: readonly string[];
  /** Why the Synth opposes, as a full sentence. */
  objections: readonly string[];
  /** The question the Synth leaves open. */
  questions: readonly string[];
}

const personas: Readonly<Record<string, Persona>> = {
  strategist: {
    keywords: ['strategy', 'strategic', 'plan', 'vision', 'position', 'expand', 'expansion', 'enter', 'pivot', 'merger', 'partnership'],
    lens: 'the three-year plan and what the move forecloses',
    lean: [3, 4, 2],
    stubbornness: 0.1,
    claims: [
      'Set {subject} against the three-year plan: it either compounds what we are building or it is a detour.',
      'The real cost of {subject} is the options it closes; I want to know which bet we stop making to fund it.',
      'Strategically, {subject} makes sense only if it strengthens the position we want to hold in three years.',
    ],
    conditions: [
      'The move is written into the three-year plan with the bet it replaces named',
      'A review at the two-quarter mark decides whether to double down or stop',
    ],
    objections: ['It pulls focus from the core plan at the moment we need it most; I would not do it now.'],
    questions: ['Which existing bet do we slow down to fund this?'],
  },
  cfo: {
    keywords: ['price', 'pricing', 'plan', 'tier', 'cost', 'budget', 'revenue', 'margin', 'profit', 'cash', 'runway', 'payback', 'roi', 'spend', 'financial', 'subscription'],
    lens: 'unit economics, payback and cash runway',
    lean: [2, 5, 2],
    stubbornness: 0.2,
    claims: [
      'Payback on {subject} has to be shown in months at current acquisition cost, not hoped for.',
      'With {figure} in the brief, the unit economics look workable, but only if acquisition cost holds.',
      'I have modelled {subject} against our runway: it is affordable once, not twice, so we get one clean attempt.',
    ],
    conditions: [
      'Payback stays under 18 months at current acquisition cost',
      'Spend is released in tranches tied to the pilot results',
    ],
    objections: ['Nobody has priced the downside; on today\'s numbers it burns runway we cannot replace.'],
    questions: ['What payback period are we willing to accept before we stop?'],
  },
  cto: {
    keywords: ['build', 'platform', 'technical', 'technology', 'tech', 'software', 'engineering', 'infrastructure', 'migrate', 'migration', 'cloud', 'api', 'architecture', 'rewrite', 'system'],
    lens: 'build cost, technical debt and what the team can ship',
    lean: [3, 4, 2],
    stubbornness: 0.2,
    claims: [
      'Engineering can ship {subject}, but it eats most of a quarter and leaves debt we will pay for in the next release.',
      'The build is smaller than it looks if we reuse the current platform; the integration work is where estimates slip.',
      'I would rather ship a thin version of {subject} in six weeks than a complete one in six months.',
    ],
    conditions: [
      'Engineering commits to a scoped first release with a named tech lead',
      'The platform work is sized before any date is announced',
    ],
    objections: ['We do not have the engineers to do this without stalling the roadmap; the date is fiction.'],
    questions: ['What do we stop building to make room for this?'],
  },
  operations_chief: {
    keywords: ['operations', 'operational', 'process', 'rollout', 'logistics', 'execution', 'capacity', 'support', 'scale', 'delivery', 'onboarding', 'timeline'],
    lens: 'owners, dates and capacity',
    lean: [3, 4, 2],
    stubbornness: 0.1,
    claims: [
      'Before we argue the merits of {subject}, I want one owner, a date and the capacity plan behind it.',
      'The hand-offs are where this breaks: sales to onboarding, onboarding to support.',
      'Operationally, {subject} is doable if we phase it; a big-bang rollout would swamp support in the first month.',
    ],
    conditions: [
      'A single owner is named with a phased rollout plan and dates',
      'Support capacity is in place before the first customers arrive',
    ],
    objections: ['We are already at capacity; adding this now breaks the things that work today.'],
    questions: ['Who owns the rollout end to end, and by when?'],
  },
  general_counsel: {
    keywords: ['eu', 'gdpr', 'legal', 'law', 'contract', 'regulation', 'regulatory', 'compliance', 'liability', 'privacy', 'lawsuit', 'patent', 'licence', 'license', 'terms'],
    lens: 'regulatory exposure, contracts and liability',
    lean: [2, 5, 2],
    stubbornness: 0.3,
    claims: [
      'The legal exposure in {subject} is manageable if customer data stays where the contracts say it does.',
      'Our standard terms were not written for this; the data-processing agreement and liability caps need updating first.',
      'I see no blocker in law, but I do see obligations we would be signing up to the day we announce.',
    ],
    conditions: [
      'Legal signs off a regulatory and data-residency review before launch',
      'Customer contracts and the data-processing agreement are updated first',
    ],
    objections: ['The regulatory exposure is open-ended and uninsured; I cannot recommend it in its current form.'],
    questions: ['Which regulator or contract clause could stop this after launch?'],
  },
  growth_lead: {
    keywords: ['launch', 'growth', 'grow', 'funnel', 'conversion', 'trial', 'signup', 'marketing', 'channel', 'adoption', 'retention', 'churn'],
    lens: 'the funnel, cohorts and experiments',
    lean: [5, 3, 1],
    stubbornness: 0.1,
    claims: [
      'The funnel already points this way: {figure} is demand we are not serving yet.',
      'Let us test {subject} on a pilot cohort first; two weeks of conversion data beats a month of debate.',
      'Retention, not sign-ups, decides whether {subject} pays; I want cohort curves before the full rollout.',
    ],
    conditions: [
      'A pilot cohort confirms the conversion lift before full rollout',
      'Churn in the pilot cohort stays under 4% a month',
    ],
    objections: ['The data says the demand is not there yet; we would be buying growth we cannot keep.'],
    questions: ['What conversion lift would make us stop testing and commit?'],
  },
  people_lead: {
    keywords: ['hire', 'hiring', 'team', 'people', 'staff', 'culture', 'remote', 'office', 'layoff', 'reorganisation', 'reorganization', 'talent', 'morale', 'salary', 'compensation', 'headcount'],
    lens: 'who does the work and how it lands on the team',
    lean: [2, 4, 3],
    stubbornness: 0.2,
    claims: [
      'Somebody has to do this work, and today that means the same people already carrying the roadmap.',
      'Doing {subject} changes what we ask of the team; if we do it, hiring has to start before the announcement.',
      'The team will read this as a signal about priorities, so how we explain it matters as much as what we decide.',
    ],
    conditions: [
      'Hiring for the extra workload is approved before commitment',
      'The team hears the decision and its reasons from leadership first',
    ],
    objections: ['The team is stretched already; this lands on the people least able to absorb it.'],
    questions: ['Who on the team carries this, and what do they drop?'],
  },
  skeptic: {
    keywords: ['should', 'whether', 'really', 'now', 'deadline', 'date', 'q1', 'q2', 'q3', 'q4'],
    lens: 'the failure mode nobody wants to name',
    lean: [1, 3, 6],
    stubbornness: 0.6,
    claims: [
      'Let me attack the strongest argument for {subject}: it assumes everything that has to go right goes right.',
      'Nobody has said what happens if this slips by a quarter; that is the failure mode I would plan for.',
      'The optimism in this room is unpriced; the case for {subject} rests on one number nobody has tested.',
    ],
    conditions: [
      'A pre-mortem names the top three failure modes, each with an owner',
      'A kill criterion is agreed before work starts',
    ],
    objections: [
      'The date leaves no slack for what can go wrong; I would wait a quarter.',
      'This is the plan everyone likes and nobody has tried to break; I am against it as it stands.',
    ],
    questions: ['What has to be true by the launch date, and what if it is not?'],
  },
  product_lead: {
    keywords: ['product', 'feature', 'roadmap', 'release', 'scope', 'mvp', 'version', 'beta', 'app'],
    lens: 'the user problem, scope and release sequencing',
    lean: [3, 4, 2],
    stubbornness: 0.1,
    claims: [
      'If we cannot say in one sentence which user problem {subject} solves, the scope is wrong.',
      'I would sequence this: the smallest release that proves the value first, the rest once usage confirms it.',
      'It fits the roadmap if it replaces something on it, not if it is stacked on top.',
    ],
    conditions: [
      'A first release is scoped to the one user problem it must solve',
      'Usage data from the first release gates the rest of the scope',
    ],
    objections: ['It solves our problem, not the user\'s; I would not put it on the roadmap.'],
    questions: ['What is the smallest release that proves users want this?'],
  },
  customer_advocate: {
    keywords: ['customer', 'client', 'satisfaction', 'nps', 'complaint', 'service', 'loyalty', 'renewal'],
    lens: 'what customers say and what switching costs them',
    lean: [3, 4, 2],
    stubbornness: 0.2,
    claims: [
      'Customers have been asking for something like this, but in their words it is about reliability, not novelty.',
      'Every change we make costs customers something to switch to; {subject} has to be worth that to them.',
      'The complaints of the last quarter tell me where this will land well and where it will hurt.',
    ],
    conditions: [
      'Existing customers get notice and a migration path before any change',
      'Five reference customers review the change before launch',
    ],
    objections: ['Our customers will read this as a grab; the goodwill we lose is worth more than we gain.'],
    questions: ['How will our current customers hear about this, and from whom?'],
  },
  data_scientist: {
    keywords: ['data', 'analytics', 'metric', 'measure', 'evidence', 'model', 'experiment', 'test', 'statistics', 'numbers'],
    lens: 'what the data shows and how it was measured',
    lean: [2, 5, 2],
    stubbornness: 0.2,
    claims: [
      'The {figure} in the brief is the number I would check first: how it was measured decides what it is worth.',
      'We have one data point and a lot of conviction; a controlled test would tell us more in two weeks.',
      'The data supports {subject} only in the segment we measured; outside it we are extrapolating.',
    ],
    conditions: [
      'A controlled test with a pre-registered success metric runs first',
      'The key figure is re-measured on a clean cohort',
    ],
    objections: ['The evidence does not support it; the effect we are counting on is within the noise.'],
    questions: ['What result would change our answer?'],
  },
  security_architect: {
    keywords: ['security', 'secure', 'breach', 'threat', 'attack', 'encryption', 'soc', 'iso', 'access', 'identity', 'vulnerability', 'cyber', 'audit', 'residency'],
    lens: 'the threat model and the price of the controls',
    lean: [2, 5, 3],
    stubbornness: 0.3,
    claims: [
      'I have threat-modelled {subject}: the new attack surface is the data path, and the controls for it are not free.',
      'The audit is the long pole here; security controls take longer to evidence than to build.',
      'It is safe to do if access is least-privilege from day one; retrofitting that later costs three times as much.',
    ],
    conditions: [
      'A threat model is signed off and the controls it needs are funded',
      'The security audit is complete before customer data moves',
    ],
    objections: ['The attack surface grows faster than our controls; I would not expose customer data this way.'],
    questions: ['Can the security audit finish before the launch date?'],
  },
  economist: {
    keywords: ['economy', 'economic', 'market', 'inflation', 'rates', 'interest', 'recession', 'demand', 'competition', 'competitor', 'cycle', 'currency'],
    lens: 'the market cycle, pricing power and second-order effects',
    lean: [3, 4, 2],
    stubbornness: 0.2,
    claims: [
      'Where we are in the cycle matters for {subject}: buyers are cutting discretionary spend, not core tools.',
      'The second-order effect is what competitors do in response; I would expect a price move within two quarters.',
      'Our pricing power is real in the segment we lead and thin everywhere else.',
    ],
    conditions: [
      'The plan holds under a downturn scenario with 20% lower demand',
      'Pricing is reviewed if a competitor responds within two quarters',
    ],
    objections: ['The timing is wrong for the cycle; demand is softening exactly where we would need it.'],
    questions: ['How do competitors respond, and how fast?'],
  },
  risk_officer: {
    keywords: ['risk', 'downside', 'exposure', 'insurance', 'loss', 'failure', 'worst', 'safety', 'hedge', 'contingency', 'uncertainty'],
    lens: 'downside, tail risks and the cost of being wrong',
    lean: [1, 5, 4],
    stubbornness: 0.4,
    claims: [
      'The expected case for {subject} is fine; the tail is what worries me, and nobody has sized it.',
      'If we are wrong about this, I want to know what it costs us and whether we can reverse it inside a quarter.',
      'I want the downside of {subject} capped before we talk about the upside.',
    ],
    conditions: [
      'Downside is capped with a budget ceiling and a reversal plan',
      'A kill switch lets us roll back inside one quarter',
    ],
    objections: ['The downside is not reversible; a bad outcome here is one we cannot walk back.'],
    questions: ['What is the worst credible outcome, and can we survive it?'],
  },
  sales_director: {
    keywords: ['sales', 'sell', 'pipeline', 'deal', 'quota', 'enterprise', 'prospect', 'buyer', 'b2b', 'partner', 'reseller'],
    lens: 'the pipeline, the sales cycle and what buyers will sign',
    lean: [4, 4, 1],
    stubbornness: 0.1,
    claims: [
      'I have three deals in the pipeline that close faster if we do this; buyers have asked for it by name.',
      'Buyers will sign this, but the sales cycle is longer than the plan assumes: count on a quarter, not a month.',
      'The pitch writes itself; what I need is pricing the field can quote without a call to finance.',
    ],
    conditions: [
      'Sales gets a price list and a pitch the field can use without escalation',
      'Two pipeline deals confirm they would sign on these terms',
    ],
    objections: ['Buyers are not asking for this; it slows the deals already in the pipeline.'],
    questions: ['Which deals in the pipeline does this move, and by how much?'],
  },
  brand_strategist: {
    keywords: ['brand', 'reputation', 'message', 'messaging', 'positioning', 'press', 'announce', 'announcement', 'rename', 'rebrand', 'image'],
    lens: 'positioning and what the move says about the company',
    lean: [3, 4, 2],
    stubbornness: 0.2,
    claims: [
      'What {subject} says about us matters as much as what it earns; right now the story is unclear.',
      'Done well, this sharpens our positioning; done quietly, the market will tell the story for us.',
      'I would announce it only with a message we can repeat in one line.',
    ],
    conditions: [
      'The announcement has a one-line message approved before launch',
      'Positioning is tested with ten customers before the public announcement',
    ],
    objections: ['It muddies our positioning; we would spend a year explaining what we are.'],
    questions: ['What story will the market tell about this move?'],
  },
  investor: {
    keywords: ['invest', 'investment', 'investor', 'funding', 'raise', 'valuation', 'return', 'capital', 'acquire', 'acquisition', 'exit', 'pitch', 'startup'],
    lens: 'market size, defensibility and return on capital',
    lean: [3, 3, 3],
    stubbornness: 0.3,
    claims: [
      'I judge {subject} as a bet: the market is big enough, the question is whether we can defend our share of it.',
      'Return on capital is the test; this money has better uses unless the moat gets deeper.',
      'If I were writing the cheque, I would want to see what stops a bigger player copying it.',
    ],
    conditions: [
      'The business case shows a return above our cost of capital within three years',
      'Defensibility is shown: what stops a larger rival copying it within a year',
    ],
    objections: ['I would not fund this: the market is real but the moat is not.'],
    questions: ['What stops a larger rival copying this within a year?'],
  },
  ethicist: {
    keywords: ['ethics', 'ethical', 'fair', 'fairness', 'consent', 'bias', 'harm', 'community', 'social', 'responsible', 'children', 'sustainability'],
    lens: 'fairness, consent and the people affected who are not in the room',
    lean: [2, 5, 3],
    stubbornness: 0.4,
    claims: [
      'The people most affected by {subject} are not in this room, and they did not consent to carry its risks.',
      'There is a fair way to do this and a fast way; I would like us to choose knowingly.',
      'Before we decide, I want to hear who bears the cost if it goes wrong.',
    ],
    conditions: [
      'The people affected are told plainly what changes and can opt out',
      'An impact review names who bears the cost if it goes wrong',
    ],
    objections: ['It shifts risk onto people who never agreed to carry it; I cannot support it.'],
    questions: ['Who bears the cost if this goes wrong, and did they agree to?'],
  },
  futurist: {
    keywords: ['future', 'trend', 'ai', 'decade', 'disrupt', 'disruption', 'emerging', 'innovation', 'scenario'],
    lens: 'five- and ten-year scenarios',
    lean: [4, 4, 1],
    stubbornness: 0.1,
    claims: [
      'Play {subject} forward five years: in two of my three scenarios it is where the market ends up anyway.',
      'The question is not whether this happens but whether we lead it or follow it.',
      'In ten years nobody will remember the quarter we moved; they will remember whether we were early or late.',
    ],
    conditions: [
      'Signposts for each scenario are tracked every quarter',
      'The plan keeps an option open for the scenario we did not pick',
    ],
    objections: ['The long-run trend runs against this; we would be investing in the past.'],
    questions: ['Which signpost tells us early that we picked the wrong scenario?'],
  },
  supply_chain_lead: {
    keywords: ['supply', 'supplier', 'vendor', 'manufacturing', 'inventory', 'shipping', 'hardware', 'sourcing', 'procurement', 'factory', 'warehouse'],
    lens: 'the physical and vendor dependencies the plan relies on',
    lean: [2, 5, 2],
    stubbornness: 0.2,
    claims: [
      'This leans on vendors we have not stress-tested; one late supplier moves the whole date.',
      'I have mapped the dependencies of {subject}: two vendors are single points of failure.',
      'Lead times are the hidden constraint here; they do not compress because we want them to.',
    ],
    conditions: [
      'A second source is qualified for every single-point vendor',
      'Vendor lead times are confirmed in writing before the date is set',
    ],
    objections: ['The vendor base cannot carry this volume; we would be promising what suppliers cannot deliver.'],
    questions: ['Which vendor, if late, moves the whole date?'],
  },
  tax_advisor: {
    keywords: ['tax', 'vat', 'entity', 'subsidiary', 'transfer', 'jurisdiction', 'structure', 'accounting', 'incorporate', 'payroll'],
    lens: 'entity structure, VAT and transfer pricing',
    lean: [2, 6, 1],
    stubbornness: 0.2,
    claims: [
      'This has a tax shape: which entity sells, where VAT is due and how income is priced between entities.',
      'The VAT registration is the easy part; transfer pricing is where the auditors will look.',
      'Structured properly, {subject} costs little in tax; structured by accident, it costs a restatement.',
    ],
    conditions: [
      'The selling entity and VAT registrations are settled before the first invoice',
      'A transfer-pricing policy is documented with the accountants',
    ],
    objections: ['The tax exposure is unquantified; we would be creating a liability before the revenue.'],
    questions: ['Which entity invoices, and where is VAT due?'],
  },
  ux_researcher: {
    keywords: ['user', 'usability', 'ux', 'research', 'interview', 'design', 'experience', 'interface', 'mobile'],
    lens: 'what users were observed doing',
    lean: [2, 5, 2],
    stubbornness: 0.2,
    claims: [
      'In the last round of interviews, users described the problem this solves, but not in the words we use.',
      'What people say and what they do differ; I would watch five users try it before we commit.',
      'The usability risk in {subject} is onboarding: the first ten minutes decide adoption.',
    ],
    conditions: [
      'Five moderated sessions show users completing the core task unaided',
      'Onboarding is tested with new users before launch',
    ],
    objections: ['Users we observed struggled with exactly this; shipping it now repeats a known mistake.'],
    questions: ['What did users actually do when they met this problem?'],
  },
  policy_analyst: {
    keywords: ['policy', 'regulator', 'government', 'public', 'legislation', 'election', 'subsidy', 'ban'],
    lens: 'regulation in motion and how public bodies will react',
    lean: [2, 5, 2],
    stubbornness: 0.2,
    claims: [
      'Regulation is moving under {subject}: the rules in draft today will apply by the time we scale.',
      'Public bodies react to visibility; a quiet pilot draws less scrutiny than a launch announcement.',
      'I would map {subject} against the regulatory calendar before fixing a date.',
    ],
    conditions: [
      'The plan is checked against regulation in draft, not only in force',
      'A briefing for the relevant regulator is ready before the launch',
    ],
    objections: ['The regulatory direction is against this; we would be building on rules that are about to change.'],
    questions: ['Which draft regulation could change the rules after we launch?'],
  },
  founder: {
    keywords: ['startup', 'speed', 'fast', 'bet', 'focus', 'idea', 'quick', 'bootstrap'],
    lens: 'speed, focus and the smallest move that proves the thesis',
    lean: [6, 3, 1],
    stubbornness: 0.1,
    claims: [
      'Speed is our edge: the smallest version of {subject} we can ship this month teaches us more than a quarter of planning.',
      'Focus is the question: if we do this, what do we stop doing to do it well?',
      'I have seen this pattern before; the teams that win test the thesis cheaply and then go all in.',
    ],
    conditions: [
      'The smallest version ships within a month with a clear success test',
      'Something else is explicitly stopped to free the team',
    ],
    objections: ['It spreads us thin; this is a distraction from the one thing that is working.'],
    questions: ['What is the smallest move that proves the thesis?'],
  },
};

/** Whether the simulator has its own material for this Synth (every Synth of the library should). */
export function hasPersona(slug: string): boolean {
  return Object.hasOwn(personas, slug);
}

/** The persona of a Synth; a Synth the table does not know argues from its catalogue role and voice. */
export function personaOf(synth: Synth): Persona {
  return (
    personas[synth.slug] ?? {
      keywords: [],
      lens: `the view of the ${synth.role}`,
      lean: [3, 4, 2],
      stubbornness: 0.2,
      claims: [`As ${synth.role}, I come at {subject} this way: ${synth.voice.replace(/\.$/, '')}.`],
      conditions: [`The ${synth.role} reviews the plan before commitment`],
      objections: [`From where the ${synth.role} sits, the case is not made yet.`],
      questions: [`What would the ${synth.role} need to see to agree?`],
    }
  );
}
