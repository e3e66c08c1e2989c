/** What other features use of report delivery. */
export { linkMessageRecipients } from './queue.js';
