// The one error class of the domain. Only the HTTP error handler turns it into a response.

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

export const badRequest = (msg: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(msg, 'BAD_REQUEST', 400, extra);

export const missingArgument = (name: string): ApiError =>
  new ApiError(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name });

export const invalidArgument = (name: string, why = ''): ApiError =>
  new ApiError(why ? `Invalid ${name}: ${why}` : `Invalid ${name}`, 'BAD_REQUEST', 400);

export const adminRequired = (): ApiError => new ApiError('Must be an organization administrator', 'BAD_REQUEST', 400);

export const ownerRequired = (): ApiError => new ApiError('Must be an organization owner', 'BAD_REQUEST', 400);
