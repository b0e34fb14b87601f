// The attachments module's public surface: its service, and the upload and stored-image helpers avatars and notes reuse.
export { AttachmentsService, type ReceiveFile } from './attachments.service';
export { FILE_CSP } from './file-name';
export { FileLinks } from './file-links';
export { fileUploadRoute, receiveFile } from './multipart';
export { deleteStoredFile, readStoredImage, storeImage } from './stored-image';
