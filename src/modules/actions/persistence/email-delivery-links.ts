import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A delivery as an execution's detail links it. */
export interface EmailDeliveryLink {
  emailDeliveryId: string;
  nodeId: string | null;
  recipientEmail: string;
  status: string;
  suppressionReason: string | null;
}

/** The deliveries an execution's e-mail requests produced, for the execution detail (oldest first). */
@Injectable()
export class EmailDeliveryLinks {
  async forExecution(manager: EntityManager, flowExecutionId: string): Promise<EmailDeliveryLink[]> {
    return manager.query<EmailDeliveryLink[]>(
      `SELECT email_delivery_id AS "emailDeliveryId", node_id AS "nodeId", recipient_email AS "recipientEmail", status,
              suppression_reason AS "suppressionReason"
         FROM email_deliveries WHERE flow_execution_id = $1 ORDER BY created_at, email_delivery_id`,
      [flowExecutionId],
    );
  }
}
