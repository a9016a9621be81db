import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import type { Caller } from '../../../shared/access/require-permission';
import { resolveResource } from '../../../shared/access/resolve-resource';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeadLetterEntity } from './dead-letter.entity';
import { EmailDeliveryEntity } from './email-delivery.entity';

/**
 * A delivery or dead letter named in the path, for a caller holding the route's permission in its tenant: missing
 * and another tenant's are the same 404; a visible one without the permission is 403.
 */
@Injectable()
export class DeliveryLogReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  async delivery(caller: Caller, deliveryId: string): Promise<EmailDeliveryEntity> {
    const { resource, access } = await resolveResource(this.accessService, caller.principal, {
      load: () => this.dataSource.getRepository(EmailDeliveryEntity).findOneBy({ emailDeliveryId: deliveryId }),
      notFound: () => new ResourceNotFoundError('email_delivery'),
    });
    access.require(caller.permission);
    return resource;
  }

  async deadLetter(caller: Caller, deadLetterId: string): Promise<DeadLetterEntity> {
    const { resource, access } = await resolveResource(this.accessService, caller.principal, {
      load: () => this.dataSource.getRepository(DeadLetterEntity).findOneBy({ deadLetterId }),
      notFound: () => new ResourceNotFoundError('dead_letter'),
    });
    access.require(caller.permission);
    return resource;
  }
}
