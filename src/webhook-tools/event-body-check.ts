/**
 * Checks a delivery body the user changed (`trigger --data`, `--set`) against the event's webhook schema of
 * the contract, so a test delivery never carries a body the service could not send. The errors are those
 * of the envelope form the body is in, which read better than those of the `oneOf` of every form.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { createContractValidator, type ContractValidator } from '../contract/validator.js';
import { envelopeSchemaPointer, type EnvelopeForm, type WebhookEventName } from '../webhooks/events.js';

const validators = new WeakMap<object, ContractValidator>();

function validatorOf(document: Readonly<OpenApiDocument>): ContractValidator {
  let validator = validators.get(document);
  if (validator === undefined) {
    // The bundled contract is checked by the tests and by `boardkit lint`; its meta-schema check is skipped.
    validator = createContractValidator(document, { validateSchema: false });
    validators.set(document, validator);
  }
  return validator;
}

/** `WebhookEventSessionComplete` (seed form) or `WebhookEventSessionCompletePublished`. */
function formSchemaPointer(event: WebhookEventName, form: EnvelopeForm): string {
  const stem = event
    .split('.')
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('');
  return `#/components/schemas/WebhookEvent${stem}${form === 'published' ? 'Published' : ''}`;
}

/** The schema violations of `body` as a delivery of `event`, one line each; none when it is valid. */
export function eventBodyErrors(
  document: Readonly<OpenApiDocument>,
  event: WebhookEventName,
  form: EnvelopeForm,
  body: unknown,
): string[] {
  const validator = validatorOf(document);
  if (validator.validate(envelopeSchemaPointer(event), body).valid) {
    return [];
  }
  return validator
    .validate(formSchemaPointer(event, form), body)
    .errors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
