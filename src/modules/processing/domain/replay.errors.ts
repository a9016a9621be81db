import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';

export const replayNotFound = () => new ResourceNotFoundError('flow_replay');
export const replayInProgress = () =>
  new ConflictError('replay_in_progress', 'The flow already has a queued or running replay; wait for it or cancel it first.');
