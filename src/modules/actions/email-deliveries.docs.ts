import { defineDocs, lines } from '../../shared/http/route-docs';

const NEWEST_FIRST_CREATED =
  '**Paging** (newest-first family): newest first by (`createdAt`, id); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total; continuations repeat every filter and the `limit` (else 400 `cursor_mismatch`).';
const WINDOW =
  '**Time window**: `from` and `to` are a pair, both or neither (one alone: 400 `required`; `from >= to`: `range`; over 31 days: `max_span`); neither means no time bound. Half-open `[from, to)` on `createdAt`.';

export const EMAIL_DELIVERIES_DOCS = defineDocs({
  tenantEmailDeliveries_list: {
    summary: 'List a tenant\'s e-mail deliveries (the delivery log)',
    description: lines(
      'One row per recipient of each e-mail a live flow execution requested: `queued`, `held` (the tenant paused e-mail), `failed` (waiting for a retry at `nextAttemptAt`), `sent`, `suppressed` (`suppressionReason`: `recipient_out_of_scope`, `no_active_version`, `actions_paused`, `cooldown`, `tenant_rate_limit`) or `dead_lettered`. Filters `status`, `emailTemplateId`, `deviceId`, `flowExecutionId`, `recipient` (address, any case). No bodies; the detail has them and each attempt\'s SMTP reply. Deliveries are kept 30 days after they end, whatever execution retention does.',
      NEWEST_FIRST_CREATED,
      WINDOW,
    ),
  },
  emailDeliveries_get: {
    summary: 'Read an e-mail delivery',
    description:
      'The delivery with its `Message-ID`, the template version, execution and device, the rendered subject and bodies, and every attempt with its time and the SMTP server\'s reply (`smtpCode`, `smtpReply`) or the connection error (`error`).',
  },
});

export const DEAD_LETTERS_DOCS = defineDocs({
  tenantDeadLetters_list: {
    summary: 'List a tenant\'s dead letters',
    description: lines(
      'Deliveries the SMTP server refused permanently (5xx) or that failed five times (at once, +1 min, +5 min, +30 min, +2 h). Filters `status` (`open`, `redrive_pending`, `redriven`), `emailTemplateId`. No bodies. A dead letter is purged 30 days after it left `open`.',
      NEWEST_FIRST_CREATED,
      WINDOW,
    ),
  },
  deadLetters_get: {
    summary: 'Read a dead letter',
    description: 'The dead letter with the rendered message (`subject`, `bodyText`, `bodyHtml`), its `Message-ID` and the last error.',
  },
  deadLetters_redrive: {
    summary: 'Redrive a dead letter',
    description:
      'Answers 202 with the dead letter `redrive_pending`; one attempt follows in the background with the same `Message-ID`: accepted → `redriven` (and its delivery `sent`), refused → back to `open` with `attempts` + 1 and the new `lastError`. 409 `invalid_state` unless `open`; 409 `actions_paused` while the tenant\'s e-mail is paused.',
    errors: { 409: { reason: 'invalid_state', currentStatus: 'redriven', message: 'Only an open dead letter can be redriven.' } },
  },
});

export const KILL_SWITCH_DOCS = defineDocs({
  tenantActionKillSwitch_get: {
    summary: 'Read the tenant\'s e-mail kill-switch',
    description: '`running` or `paused`, with the pause `reason`, when and by whom it last changed.',
  },
  tenantActionKillSwitch_pause: {
    summary: 'Pause all of the tenant\'s e-mail',
    description:
      'Body: `reason` (optional, ≤ 500). While paused, e-mails flows request are logged `suppressed` (`actions_paused`) and deliveries already waiting become `held`; redrives are refused. Idempotent: pausing a paused switch changes nothing. Audited `action_kill_switch.paused`.',
  },
  tenantActionKillSwitch_resume: {
    summary: 'Resume the tenant\'s e-mail',
    description: '`running` again: held deliveries go back to the queue and are sent. Idempotent. Audited `action_kill_switch.resumed`.',
  },
});

export const TEST_SEND_DOCS = defineDocs({
  emailTemplateVersions_testSend: {
    summary: 'Send a test e-mail of a template version',
    description:
      'Renders the version (any status) with `context` (values as the template variables name them; missing ones render "") or with the values of the tenant\'s execution `flowExecutionId`, and sends it now to `to`. Answers the SMTP server\'s reply (`smtpCode`, `smtpReply`) and the `Message-ID`; a refusal or an unreachable server is 502 `DEPENDENCY_FAILURE` (`dependency` `mail`) with the reply. Nothing is logged as a delivery; audited `email_template_version.test_sent` (no bodies). Limited per user (ACTIONS_TEST_SENDS_PER_MINUTE, 429 past it).',
  },
});
