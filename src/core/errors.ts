/** Domain errors carry a stable code and an HTTP status; one Fastify handler maps them. */
export class DomainError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(entity: string, id: string | number) {
    super(404, 'NOT_FOUND', `${entity} ${id} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, code, message);
  }
}

/** Registration found patients who may be the one being registered: the 409 carries them. */
export class PossibleDuplicateError extends ConflictError {
  constructor(
    message: string,
    readonly candidates: unknown[],
  ) {
    super(message, 'POSSIBLE_DUPLICATE');
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details: { path: string; message: string }[] = []) {
    super(400, 'VALIDATION_ERROR', message, details);
  }
  static field(path: string, message: string): ValidationError {
    return new ValidationError(`${path}: ${message}`, [{ path, message }]);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have permission to do this') {
    super(403, 'FORBIDDEN', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Sign in required') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'TOO_MANY_REQUESTS', message);
  }
}

/** The lab is in maintenance mode (System Settings): changes wait until an administrator ends it. */
export class MaintenanceError extends DomainError {
  constructor() {
    super(
      503,
      'MAINTENANCE',
      'The lab is in maintenance mode: changes are paused until an administrator ends it. You can still look things up.',
    );
  }
}
