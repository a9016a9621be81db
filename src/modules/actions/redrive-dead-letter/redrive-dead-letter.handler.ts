import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeadLetterResponse } from '../dto/dead-letter.response.dto';
import { DeadLetterEntity } from '../persistence/dead-letter.entity';
import { DeliveryLogReader } from '../persistence/delivery-log.reader';
import { RedriveDeadLetterCommand } from './redrive-dead-letter.command';
import { REDRIVE_DEAD_LETTER_JOB } from './redrive-dead-letter.job';

/** `open` → `redrive_pending` and one attempt queued (202); refused while the tenant's e-mail is paused. */
@CommandHandler(RedriveDeadLetterCommand)
export class RedriveDeadLetterHandler implements ICommandHandler<RedriveDeadLetterCommand, DeadLetterResponse> {
  constructor(
    private readonly reader: DeliveryLogReader,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute({ caller, deadLetterId }: RedriveDeadLetterCommand): Promise<DeadLetterResponse> {
    await this.reader.deadLetter(caller, deadLetterId);
    return this.unitOfWork.run(async (tx) => {
      const [current] = await tx.manager.query<{ status: string; tenant_id: string; paused: boolean }[]>(
        `SELECT l.status, l.tenant_id, coalesce(k.state = 'paused', false) AS paused
           FROM dead_letters l LEFT JOIN action_kill_switches k ON k.tenant_id = l.tenant_id
          WHERE l.dead_letter_id = $1 FOR UPDATE OF l`,
        [deadLetterId],
      );
      if (current!.status !== 'open') {
        throw new ConflictError('invalid_state', 'Only an open dead letter can be redriven.', { currentStatus: current!.status });
      }
      if (current!.paused) throw new ConflictError('actions_paused', 'The tenant\'s e-mail is paused; resume it first.');
      await tx.manager.query(`UPDATE dead_letters SET status = 'redrive_pending' WHERE dead_letter_id = $1`, [deadLetterId]);
      await tx.enqueue({ name: REDRIVE_DEAD_LETTER_JOB, payload: { deadLetterId } });
      const letter = await tx.manager.findOneByOrFail(DeadLetterEntity, { deadLetterId });
      await tx.audit({
        eventType: 'dead_letter.redriven',
        action: 'redrive',
        entityType: 'dead_letter',
        entityId: deadLetterId,
        tenantId: letter.tenantId,
        metadata: { emailDeliveryId: letter.emailDeliveryId, emailTemplateId: letter.emailTemplateId, attempts: letter.attempts },
      });
      return DeadLetterResponse.of(letter);
    });
  }
}
