import { PageResponse } from '../../../shared/pagination/page';
import { DeviceAssignmentResponse } from './device.response.dto';

export class DeviceAssignmentPage extends PageResponse(DeviceAssignmentResponse) {}
