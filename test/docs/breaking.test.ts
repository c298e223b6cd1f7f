/**
 * The breaking-change guard on small documents: each kind of breaking change is found once it is made,
 * in the direction where it breaks clients; additive changes pass; a change declared in the changelog
 * passes. Then the real contract against its released copy.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import {
  breakingChanges,
  breakingRules,
  checkRelease,
  declarations,
  isDeclared,
  type BreakingChange,
} from '../../src/docs/breaking/index.js';
import { editable, releasedContract, type Editable } from '../fixtures/release-contract.js';

/** The findings of `change` applied to a copy of the released fixture (and `before` to the released one). */
function findingsAfter(
  change: (head: Editable) => void,
  before: (base: Editable) => void = () => undefined,
): BreakingChange[] {
  const base = releasedContract();
  before(editable(base));
  const head = structuredClone(base);
  change(editable(head));
  return breakingChanges(base, head);
}

const summary = (findings: BreakingChange[]): string[] =>
  findings.map(({ rule, operation, where }) => `${rule} | ${operation} | ${where}`);

const schemas = (doc: Editable): Editable => doc['components']['schemas'];
const getThing = (doc: Editable): Editable => doc['paths']['/v1/things/{id}']['get'];
const createThing = (doc: Editable): Editable => doc['paths']['/v1/things']['post'];

interface Case {
  name: string;
  change: (head: Editable) => void;
  before?: (base: Editable) => void;
  expected: string[];
}

const breaking: Case[] = [
  {
    name: 'an operation removed',
    change: (head) => delete head['paths']['/v1/things/{id}']['get'],
    expected: ['operation-removed | GET /v1/things/{id} | operation'],
  },
  {
    name: 'a webhook removed',
    change: (head) => delete head['webhooks']['thing.created'],
    expected: ['operation-removed | webhook thing.created | webhook'],
  },
  {
    name: 'a path parameter renamed',
    change: (head) => {
      head['paths']['/v1/things/{thing_id}'] = head['paths']['/v1/things/{id}'];
      delete head['paths']['/v1/things/{id}'];
      head['components']['parameters']['ThingId']['name'] = 'thing_id';
    },
    expected: ['path-parameter-renamed | GET /v1/things/{id} | path now /v1/things/{thing_id}'],
  },
  {
    name: 'an operationId changed',
    change: (head) => (getThing(head)['operationId'] = 'fetchThing'),
    expected: ['operation-id-changed | GET /v1/things/{id} | operationId now fetchThing'],
  },
  {
    name: 'a query parameter removed',
    change: (head) => (getThing(head)['parameters'] = []),
    expected: ['parameter-removed | GET /v1/things/{id} | query parameter expand'],
  },
  {
    name: 'a required query parameter added',
    change: (head) =>
      getThing(head)['parameters'].push({ name: 'fields', in: 'query', required: true, schema: { type: 'string' } }),
    expected: ['parameter-became-required | GET /v1/things/{id} | query parameter fields'],
  },
  {
    name: 'an optional query parameter made required',
    change: (head) => (getThing(head)['parameters'][0]['required'] = true),
    expected: ['parameter-became-required | GET /v1/things/{id} | query parameter expand'],
  },
  {
    name: 'a request body made required',
    before: (base) => (createThing(base)['requestBody']['required'] = false),
    change: (head) => (createThing(head)['requestBody']['required'] = true),
    expected: ['request-body-became-required | POST /v1/things | request body'],
  },
  {
    name: 'a request property made required',
    change: (head) => schemas(head)['CreateThing']['required'].push('kind'),
    expected: ['property-became-required | POST /v1/things | request body application/json $.kind'],
  },
  {
    name: 'a response property removed',
    change: (head) => delete schemas(head)['Thing']['properties']['size'],
    expected: [
      'property-removed | GET /v1/things/{id} | response 200 application/json $.size',
      'property-removed | POST /v1/things | response 201 application/json $.size',
    ],
  },
  {
    name: 'a response property no longer required',
    change: (head) => (schemas(head)['Thing']['required'] = ['id', 'status']),
    expected: [
      'property-no-longer-required | GET /v1/things/{id} | response 200 application/json $.name',
      'property-no-longer-required | POST /v1/things | response 201 application/json $.name',
    ],
  },
  {
    name: 'a response type widened (integer to number)',
    change: (head) => (schemas(head)['Thing']['properties']['size']['type'] = 'number'),
    expected: [
      'type-changed | GET /v1/things/{id} | response 200 application/json $.size',
      'type-changed | POST /v1/things | response 201 application/json $.size',
    ],
  },
  {
    name: 'a request type changed',
    change: (head) => (schemas(head)['CreateThing']['properties']['size']['type'] = 'string'),
    expected: ['type-changed | POST /v1/things | request body application/json $.size'],
  },
  {
    name: 'an enum value removed from a response',
    change: (head) => (schemas(head)['ThingStatus']['enum'] = ['active']),
    expected: [
      'enum-value-removed | GET /v1/things/{id} | response 200 application/json $.status',
      'enum-value-removed | POST /v1/things | response 201 application/json $.status',
    ],
  },
  {
    name: 'an enum value removed from a request',
    change: (head) => (schemas(head)['CreateThing']['properties']['kind']['enum'] = ['box']),
    expected: ['enum-value-removed | POST /v1/things | request body application/json $.kind'],
  },
  {
    name: 'a request length limit lowered',
    change: (head) => (schemas(head)['CreateThing']['properties']['name']['maxLength'] = 50),
    expected: ['constraint-tightened | POST /v1/things | request body application/json $.name'],
  },
  {
    name: 'a request minimum raised',
    change: (head) => (schemas(head)['CreateThing']['properties']['size']['minimum'] = 1),
    expected: ['constraint-tightened | POST /v1/things | request body application/json $.size'],
  },
  {
    name: 'a property removed from a closed request schema',
    change: (head) => delete schemas(head)['CreateThing']['properties']['tags'],
    expected: ['property-removed | POST /v1/things | request body application/json $.tags'],
  },
  {
    name: 'a request schema closed',
    before: (base) => delete schemas(base)['CreateThing']['additionalProperties'],
    change: (head) => (schemas(head)['CreateThing']['additionalProperties'] = false),
    expected: ['schema-closed | POST /v1/things | request body application/json $'],
  },
  {
    name: 'a success response removed',
    change: (head) => delete createThing(head)['responses']['201'],
    expected: ['response-removed | POST /v1/things | response 201'],
  },
  {
    name: 'a response header removed',
    change: (head) => delete getThing(head)['responses']['200']['headers']['X-Service-API-Version'],
    expected: ['response-header-removed | GET /v1/things/{id} | response 200 header X-Service-API-Version'],
  },
  {
    name: 'a response media type removed',
    change: (head) => {
      const content = getThing(head)['responses']['200']['content'];
      content['application/vnd.thing+json'] = content['application/json'];
      delete content['application/json'];
    },
    expected: ['media-type-removed | GET /v1/things/{id} | response 200 application/json'],
  },
  {
    name: 'a path parameter pattern changed',
    change: (head) => (head['components']['parameters']['ThingId']['schema']['pattern'] = '^thing_[a-z0-9]+$'),
    expected: ['format-changed | GET /v1/things/{id} | path parameter id $'],
  },
  {
    name: 'a variant added to a response oneOf, and removed from nothing in requests',
    change: (head) => {
      schemas(head)['BotOwner'] = { type: 'object', required: ['bot'], properties: { bot: { type: 'string' } } };
      schemas(head)['Owner']['oneOf'].push({ $ref: '#/components/schemas/BotOwner' });
    },
    expected: [
      'variant-added | GET /v1/things/{id} | response 200 application/json $.owner',
      'variant-added | POST /v1/things | response 201 application/json $.owner',
    ],
  },
  {
    name: 'a variant removed from a request oneOf (fine where it is only read)',
    change: (head) => schemas(head)['Owner']['oneOf'].pop(),
    expected: ['variant-removed | POST /v1/things | request body application/json $.owner'],
  },
  {
    name: 'a webhook header removed',
    change: (head) => (head['webhooks']['thing.created']['post']['parameters'] = []),
    expected: ['parameter-removed | webhook thing.created | header parameter X-Signature'],
  },
  {
    name: 'a webhook payload member removed (payloads follow the response rules)',
    change: (head) => {
      delete schemas(head)['ThingEvent']['properties']['thing_id'];
      schemas(head)['ThingEvent']['required'] = ['event'];
    },
    expected: [
      'property-no-longer-required | webhook thing.created | payload application/json $.thing_id',
      'property-removed | webhook thing.created | payload application/json $.thing_id',
    ],
  },
  {
    name: 'a webhook event constant changed',
    change: (head) => (schemas(head)['ThingEvent']['properties']['event']['const'] = 'thing.made'),
    expected: ['const-changed | webhook thing.created | payload application/json $.event'],
  },
];

const additive: Case[] = [
  {
    name: 'a new operation and a new webhook',
    change: (head) => {
      head['paths']['/v1/things']['get'] = {
        operationId: 'listThings',
        responses: { '200': { description: 'Things.' } },
      };
      head['webhooks']['thing.deleted'] = head['webhooks']['thing.created'];
    },
    expected: [],
  },
  {
    name: 'a new optional query parameter',
    change: (head) => getThing(head)['parameters'].push({ name: 'fields', in: 'query', schema: { type: 'string' } }),
    expected: [],
  },
  {
    name: 'a new optional request property and a new response property',
    change: (head) => {
      schemas(head)['CreateThing']['properties']['colour'] = { type: 'string' };
      schemas(head)['Thing']['properties']['colour'] = { type: 'string' };
      schemas(head)['Thing']['required'].push('colour');
    },
    expected: [],
  },
  {
    name: 'enum values added, in a request and in a response',
    change: (head) => {
      schemas(head)['CreateThing']['properties']['kind']['enum'].push('crate');
      schemas(head)['ThingStatus']['enum'].push('archived');
    },
    expected: [],
  },
  {
    name: 'a request loosened: a property made optional, a limit raised, a type widened',
    change: (head) => {
      schemas(head)['CreateThing']['required'] = [];
      schemas(head)['CreateThing']['properties']['name']['maxLength'] = 200;
      schemas(head)['CreateThing']['properties']['size']['type'] = 'number';
    },
    expected: [],
  },
  {
    name: 'a new error response and a new response header',
    change: (head) => {
      createThing(head)['responses']['409'] = { description: 'Conflict.' };
      getThing(head)['responses']['200']['headers']['RateLimit'] = { schema: { type: 'string' } };
    },
    expected: [],
  },
  {
    name: 'an error response removed',
    change: (head) => delete getThing(head)['responses']['404'],
    expected: [],
  },
  {
    name: 'anything under /v2',
    change: (head) => delete head['paths']['/v2/things'],
    expected: [],
  },
];

describe('breakingChanges', () => {
  test('finds nothing between a contract and itself', () => {
    expect(breakingChanges(releasedContract(), releasedContract())).toEqual([]);
  });

  test.each(breaking.map((entry) => [entry.name, entry] as const))('finds %s', (_, { change, before, expected }) => {
    expect(summary(findingsAfter(change, before))).toEqual(expected);
  });

  test.each(additive.map((entry) => [entry.name, entry] as const))('lets %s pass', (_, { change, before }) => {
    expect(summary(findingsAfter(change, before))).toEqual([]);
  });

  test('every rule of the catalogue is exercised by a breaking case', () => {
    const exercised = new Set(breaking.flatMap((entry) => entry.expected.map((line) => line.split(' | ')[0])));
    expect(Object.keys(breakingRules).filter((rule) => !exercised.has(rule))).toEqual([]);
  });

  test('names the component schema a change sits in', () => {
    const [finding] = findingsAfter((head) => (schemas(head)['ThingStatus']['enum'] = ['active']));
    expect(finding?.component).toBe('ThingStatus');
  });
});

describe('declarations in the changelog', () => {
  const removedSize = findingsAfter((head) => delete schemas(head)['Thing']['properties']['size']);
  const changelog = (entries: string): string =>
    `# Changelog\n\nIntro with an example:\n\n    - \`property-removed\` \`Thing\`: not a declaration\n\n## Unreleased\n\n${entries}\n\n## 2026-10-01\n\n- \`type-changed\` \`Thing\`: already released\n`;

  test('are read from the Unreleased section only', () => {
    expect(
      declarations(changelog('- `property-removed` `GET /v1/things/{id}`: `size` moved to `dimensions`.')),
    ).toEqual([{ rule: 'property-removed', subject: 'GET /v1/things/{id}' }]);
  });

  test('an operation declares the changes in that operation only', () => {
    const declared = declarations(changelog('- `property-removed` `GET /v1/things/{id}`: `size` moved.'));
    expect(removedSize.map((change) => isDeclared(change, declared))).toEqual([true, false]);
  });

  test('a component declares the change wherever the component is used', () => {
    const declared = declarations(changelog('* `property-removed` `Thing`: `size` moved.'));
    expect(removedSize.every((change) => isDeclared(change, declared))).toBe(true);
  });

  test('another rule, or a declaration outside Unreleased, declares nothing', () => {
    const declared = declarations(changelog('- `type-changed` `Thing`: something else.'));
    expect(removedSize.some((change) => isDeclared(change, declared))).toBe(false);
  });
});

describe('the contract against its released copy', () => {
  test('has no undeclared breaking change', async () => {
    const { undeclared } = await checkRelease();
    expect(summary(undeclared)).toEqual([]);
  });

  test('would show a removed response member in every operation that returns it', () => {
    const released = loadContract();
    const now = structuredClone(released);
    const memo = editable(now)['components']['schemas']['Memo'];
    delete memo['properties']['verdict'];
    const found = breakingChanges(released, now).filter((change) => change.rule === 'property-removed');
    expect(found.map((change) => change.operation)).toContain('GET /v1/sessions/{id}');
    expect(found.every((change) => change.component === 'Memo' && change.where.endsWith('.memo.verdict'))).toBe(true);
  });
});
