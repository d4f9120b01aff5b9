// What other domains of lib/ may use of lib/attachments/: they import it from here, never from its files.
export { attachmentPath, attachmentsRoot, deleteAttachments, isUuid, isValidExternalUrl } from './attachments.ts';
