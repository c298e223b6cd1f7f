/**
 * Webhook tools for integration teams: send signed deliveries to a receiver (`trigger`), test a
 * receiver against the seed's rules (`check-receiver`), check one captured delivery (`verify`), and
 * send a delivery of `boardkit serve` again from its store (`resend`).
 * @module
 */
export { checkReceiver, type CheckReceiverOptions } from './check-receiver.js';
export { signedDelivery, type OutgoingDelivery } from './delivery.js';
export { receiverCases, type ReceiverCase } from './receiver-cases.js';
export { sampleBody, sampleEnvelope } from './samples.js';
export { applyOverrides, OverrideError, parseOverride, type FieldOverride } from './overrides.js';
export { readStoredDelivery, resendDelivery, ResendError, type ResendOptions } from './resend.js';
export { ReceiverUrlError, receiverSender } from './send.js';
export { describeTrigger, eventsToTrigger, triggerEvents, TriggerUsageError, type TriggerResult } from './trigger.js';
export { describeVerdict, verifyCaptured, type CapturedDelivery } from './verify.js';
