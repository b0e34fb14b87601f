// The attachments module's public surface: its services, and the upload and stored-image helpers notes reuse.
export { AttachmentsService, type ReceiveFile } from './attachments.service';
export { AvatarsService } from './avatars.service';
export { FILE_CSP } from './file-name';
export { fileUploadBody, receiveFile, skipBodyValidation } from './multipart';
export { deleteStoredFile, readStoredImage, storeImage } from './stored-image';
