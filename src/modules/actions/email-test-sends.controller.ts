import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { WriteById } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TestSendRequest, TestSendResponse } from './dto/test-send.dto';
import { TEST_SEND_DOCS } from './email-deliveries.docs';
import { TestSendEmailCommand } from './test-send-email/test-send-email.command';

@ApiTags('flow actions')
@ApiBearerAuth()
@ApiDocs(TEST_SEND_DOCS)
@Controller('v1')
export class EmailTestSendsController {
  constructor(private readonly commandBus: CommandBus) {}

  @WriteById('post', 'email-templates/:templateId/versions/:versionId/test-send', {
    operationId: 'emailTemplateVersions_testSend',
    permission: 'actions:write',
    type: TestSendResponse,
    description: 'The SMTP server accepted the test e-mail.',
    forbidden: '`missing_permission`: needs `actions:write` through a tenant-level grant.',
  })
  testSend(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @UuidParam('versionId') versionId: string,
    @Body() body: TestSendRequest,
  ): Promise<TestSendResponse> {
    return this.commandBus.execute(new TestSendEmailCommand(caller, templateId.toLowerCase(), versionId.toLowerCase(), body));
  }
}
