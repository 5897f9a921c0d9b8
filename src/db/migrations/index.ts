import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_spaces.js';
import * as m0003 from './0003_pages.js';
import * as m0004 from './0004_tasks.js';
import * as m0005 from './0005_comments_attachments.js';
import * as m0006 from './0006_search.js';
import * as m0007 from './0007_jobs.js';
import * as m0008 from './0008_bug_reports.js';
import * as m0009 from './0009_research.js';
import * as m0010 from './0010_local_sync.js';
import * as m0011 from './0011_memory.js';
import * as m0012 from './0012_search_stats.js';
import * as m0013 from './0013_workspace_member_count.js';
import * as m0014 from './0014_attachments_blob_key.js';
import * as m0015 from './0015_pages_recent.js';
import * as m0016 from './0016_search_stats_deltas.js';
import * as m0017 from './0017_history_current_content.js';
import * as m0018 from './0018_pages_drop_redundant_index.js';
import * as m0019 from './0019_sync_mime_types.js';
import * as m0020 from './0020_drop_grants_of_former_members.js';
import * as m0021 from './0021_live_documents.js';
import * as m0022 from './0022_exports.js';
import * as m0023 from './0023_imports.js';
import * as m0024 from './0024_api_key_scopes.js';
import * as m0025 from './0025_audit_log.js';
import * as m0026 from './0026_page_restrictions.js';
import * as m0027 from './0027_sessions.js';
import * as m0028 from './0028_invitations.js';
import * as m0029 from './0029_user_identities.js';
import * as m0030 from './0030_shares.js';
import * as m0031 from './0031_api_key_workspace.js';
import * as m0032 from './0032_domain_events.js';
import * as m0033 from './0033_notifications.js';
import * as m0034 from './0034_webhooks.js';
import * as m0035 from './0035_task_page.js';
import * as m0036 from './0036_email_verification.js';
import * as m0037 from './0037_invitations_for_accounts.js';
import * as m0038 from './0038_search_stats_folded.js';
import * as m0039 from './0039_templates.js';
import * as m0040 from './0040_page_favorites_and_visits.js';
import * as m0041 from './0041_comment_anchors_and_reactions.js';
import * as m0042 from './0042_image_layout_widths.js';
import * as m0043 from './0043_oauth.js';

/** Ordered migrations; the key order is the run order. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_spaces': m0002,
  '0003_pages': m0003,
  '0004_tasks': m0004,
  '0005_comments_attachments': m0005,
  '0006_search': m0006,
  '0007_jobs': m0007,
  '0008_bug_reports': m0008,
  '0009_research': m0009,
  '0010_local_sync': m0010,
  '0011_memory': m0011,
  '0012_search_stats': m0012,
  '0013_workspace_member_count': m0013,
  '0014_attachments_blob_key': m0014,
  '0015_pages_recent': m0015,
  '0016_search_stats_deltas': m0016,
  '0017_history_current_content': m0017,
  '0018_pages_drop_redundant_index': m0018,
  '0019_sync_mime_types': m0019,
  '0020_drop_grants_of_former_members': m0020,
  '0021_live_documents': m0021,
  '0022_exports': m0022,
  '0023_imports': m0023,
  '0024_api_key_scopes': m0024,
  '0025_audit_log': m0025,
  '0026_page_restrictions': m0026,
  '0027_sessions': m0027,
  '0028_invitations': m0028,
  '0029_user_identities': m0029,
  '0030_shares': m0030,
  '0031_api_key_workspace': m0031,
  '0032_domain_events': m0032,
  '0033_notifications': m0033,
  '0034_webhooks': m0034,
  '0035_task_page': m0035,
  '0036_email_verification': m0036,
  '0037_invitations_for_accounts': m0037,
  '0038_search_stats_folded': m0038,
  '0039_templates': m0039,
  '0040_page_favorites_and_visits': m0040,
  '0041_comment_anchors_and_reactions': m0041,
  '0042_image_layout_widths': m0042,
  '0043_oauth': m0043,
};
