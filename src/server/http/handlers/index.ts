/**
 * The handler map: exactly one handler per operation of the contract, keyed by operationId. The type
 * makes a missing operation, an undocumented status or a wrongly shaped body a compile error. The
 * unversioned aliases (`x-alias-of`) share the handler of the operation they alias.
 * @module
 */
import type { HandlerMap } from '../../ports/handlers.js';
import { executeAction, undoAction } from './actions.js';
import { getCredits, listIntegrations, listModes, listSynths } from './catalog.js';
import { chatWithSynth } from './chat.js';
import { getHealth } from './health.js';
import { generateOutcome, getOutcomes } from './outcomes.js';
import { captureDecision, createShare, exportSession, listDecisions, listShares, revokeShare } from './records.js';
import { forkSession, reconveneSession } from './session-copies.js';
import { archiveSession, cancelSession, continueSession, getSessionPlan, sendSessionMessage } from './session-runs.js';
import { deleteSession, getSession, listSessions, planSession, startSession, updateSession } from './sessions.js';
import { streamSessionEvents, streamSessionSummary } from './streams.js';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  updateWebhook,
} from './webhooks.js';

export const handlers: HandlerMap = {
  getHealth,
  listSessions,
  startSession,
  planSession,
  getSession,
  updateSession,
  deleteSession,
  streamSessionEvents,
  streamSessionSummary,
  getSessionPlan,
  sendSessionMessage,
  getOutcomes,
  generateOutcome,
  listDecisions,
  captureDecision,
  exportSession,
  createSessionExport: exportSession,
  listShares,
  createShare,
  revokeShare,
  forkSession,
  continueSession,
  reconveneSession,
  cancelSession,
  archiveSession,
  chatWithSynth,
  executeAction,
  undoAction,
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  enableWebhook,
  listWebhookDeliveries,
  listWebhooksUnversioned: listWebhooks,
  createWebhookUnversioned: createWebhook,
  getWebhookUnversioned: getWebhook,
  updateWebhookUnversioned: updateWebhook,
  deleteWebhookUnversioned: deleteWebhook,
  enableWebhookUnversioned: enableWebhook,
  listWebhookDeliveriesUnversioned: listWebhookDeliveries,
  listIntegrations,
  listSynths,
  listModes,
  getCredits,
};
