import { defineDocs, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const SESSIONS_DOCS = defineDocs({
  sessions_list: {
    summary: 'List the own active sessions',
    description: lines(
      '**Access**: any signed-in user.',
      'At most 10 active sessions, most recently used first, the calling one marked `current`. Shows no IP addresses or user agents. Not paged.',
    ),
  },
  sessions_revoke: {
    summary: 'Revoke one of the own sessions',
    description: lines(
      '**Access**: the owner of the session. Revoking the current session is allowed; its token stops working at once. Answers 204.',
      '**400**: `sessionId` not a UUID. **404** `RESOURCE_NOT_FOUND` (`session`): no active session with this id belongs to the caller; another user’s session gets the same answer.',
    ),
  },
});
