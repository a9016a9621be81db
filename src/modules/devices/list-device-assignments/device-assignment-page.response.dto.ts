import { PageResponse } from '../../../shared/pagination/page';
import { DeviceAssignmentResponse } from '../domain/device.response.dto';

export class DeviceAssignmentPage extends PageResponse(DeviceAssignmentResponse) {}
