import { SetMetadata } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';

/**
 * Pins an operation's operationId (generated clients name their methods after it), so the controller class that
 * serves a route can change without renaming the operation. Unlike @ApiOperation it adds no empty summary.
 */
export const OperationId = (operationId: string): MethodDecorator => SetMetadata(DECORATORS.API_OPERATION, { operationId });
