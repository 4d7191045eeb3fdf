// The one error class of the domain, and the catalog of coded errors. Only the HTTP error
// handler turns an ApiError into a response.
//
// An error with a code of its own (anything but plain BAD_REQUEST) is declared here once, with
// its code, status and message template, as the reference declares its error classes, and raised
// by name (`throw adminRequired()`), so one condition always goes out with one code. Plain
// "bad request" messages are raised where they arise, with `badRequest(msg)`.

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'INVALID_API_KEY'
  | 'USER_DEACTIVATED'
  | 'REALM_DEACTIVATED'
  | 'UNAUTHORIZED_PRINCIPAL'
  | 'REQUEST_VARIABLE_MISSING'
  | 'STREAM_DOES_NOT_EXIST'
  | 'BAD_EVENT_QUEUE_ID'
  | 'REQUEST_TIMEOUT'
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'REACTION_ALREADY_EXISTS'
  | 'REACTION_DOES_NOT_EXIST'
  | 'CANNOT_DEACTIVATE_LAST_USER'
  | 'CANNOT_DEACTIVATE_GROUP_IN_USE'
  | 'STREAM_WILDCARD_MENTION_NOT_ALLOWED'
  | 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED'
  | 'RATE_LIMIT_HIT'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'AUTHENTICATION_FAILED'
  | 'CSRF_FAILED'
  | 'INVITATION_FAILED';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = 'BAD_REQUEST',
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A plain 400 with code BAD_REQUEST: the message says what was wrong. */
export const badRequest = (msg: string, extra: Record<string, unknown> = {}): ApiError => new ApiError(msg, 'BAD_REQUEST', 400, extra);

export const invalidArgument = (name: string, why = ''): ApiError => badRequest(why ? `Invalid ${name}: ${why}` : `Invalid ${name}`);

/** Declares one coded error: its code, status, message template and the fields it carries. */
function coded<A extends unknown[]>(
  code: Exclude<ErrorCode, 'BAD_REQUEST'>,
  status: number,
  message: (...args: A) => string,
  extra: (...args: A) => Record<string, unknown> = () => ({}),
): (...args: A) => ApiError {
  return (...args: A) => new ApiError(message(...args), code, status, extra(...args));
}

// Who may: the reference's OrganizationAdministratorRequiredError and OrganizationOwnerRequiredError.
export const adminRequired = coded('UNAUTHORIZED_PRINCIPAL', 400, () => 'Must be an organization administrator');
export const ownerRequired = coded('UNAUTHORIZED_PRINCIPAL', 400, () => 'Must be an organization owner');

// Authentication.
export const notLoggedIn = coded('UNAUTHORIZED', 401, () => 'Not logged in: API authentication or user session required');
export const notForIncomingWebhookBots = coded('UNAUTHORIZED', 401, () => 'This API is not available to incoming webhook bots.');
export const invalidApiKey = coded('INVALID_API_KEY', 401, () => 'Invalid API key');
export const authenticationFailed = coded('AUTHENTICATION_FAILED', 401, () => 'Your username or password is incorrect');
export const userDeactivated = coded('USER_DEACTIVATED', 401, () => 'Account is deactivated');
export const realmDeactivated = coded('REALM_DEACTIVATED', 401, () => 'This organization has been deactivated');
export const csrfFailed = coded('CSRF_FAILED', 403, () => 'CSRF error: missing or wrong CSRF token');
export const rateLimitHit = coded(
  'RATE_LIMIT_HIT',
  429,
  (_seconds: number) => 'API usage exceeded rate limit',
  (seconds) => ({ 'retry-after': seconds }),
);

// Requests.
export const missingArgument = coded(
  'REQUEST_VARIABLE_MISSING',
  400,
  (name: string) => `Missing '${name}' argument`,
  (name) => ({ var_name: name }),
);
export const notFound = coded('NOT_FOUND', 404, (msg?: string) => msg ?? 'Not Found');
export const fileNotFound = coded('NOT_FOUND', 404, () => 'File not found');
export const badEventQueueId = coded(
  'BAD_EVENT_QUEUE_ID',
  400,
  (queueId: string) => `Bad event queue ID: ${queueId}`,
  (queueId) => ({ queue_id: queueId }),
);

// Resources.
export const streamDoesNotExist = coded(
  'STREAM_DOES_NOT_EXIST',
  400,
  (name: string) => `Stream '${name}' does not exist`,
  (name) => ({ stream: name }),
);
export const streamIdDoesNotExist = coded(
  'STREAM_DOES_NOT_EXIST',
  400,
  (id: number) => `Stream with ID '${id}' does not exist`,
  (id) => ({ stream_id: id }),
);
export const reactionExists = coded('REACTION_ALREADY_EXISTS', 400, () => 'Reaction already exists.');
export const reactionDoesNotExist = coded('REACTION_DOES_NOT_EXIST', 400, () => "Reaction doesn't exist.");
export const groupInUse = coded(
  'CANNOT_DEACTIVATE_GROUP_IN_USE',
  400,
  (_objections: Record<string, unknown>[]) => 'Cannot deactivate user group in use.',
  (objections) => ({ objections }),
);
export interface MoveLimitDetail {
  first_message_id_allowed_to_move: number | null;
  total_messages_in_topic: number;
  total_messages_allowed_to_move: number;
}
export const moveTimeLimitExceeded = coded(
  'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
  400,
  (_detail: MoveLimitDetail) => 'You only have permission to move the most recent messages in this topic.',
  (detail) => ({ ...detail }),
);
export const invitationFailed = coded(
  'INVITATION_FAILED',
  400,
  (msg: string, _errors: [string, string, boolean][], _sent: boolean) => msg,
  (_msg, errors, sent) => ({ errors, sent_invitations: sent, license_limit_reached: false, daily_limit_reached: false }),
);
