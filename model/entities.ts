import { User, UserRedirect, EmailAddress } from './user.ts';
import { AccessToken, AccessTokenRepo } from './token.ts';
import { Repository, RepoUnit, Collaboration, RepoRedirect } from './repo.ts';
import { OrgUser, Team, TeamUnit, TeamUser, TeamRepo } from './org.ts';
import { ResourceIndex } from './counter.ts';
import { ActionTask } from './action-task.ts';
import { ActionSecret, ActionVariable } from './action-secret.ts';
import { ActionRunner, ActionRunnerToken, ActionRun, ActionRunJob, ActionArtifact } from './actions.ts';
import { Label } from './label.ts';
import { Star, Watch } from './star.ts';
import { Topic, RepoTopic } from './topic.ts';
import { RepoTransfer } from './transfer.ts';
import { Mirror, PushMirror } from './mirror.ts';
import { Follow, BlockedUser } from './social.ts';
import { PublicKey, GpgKey, GpgKeyImport } from './keys.ts';
import { OAuth2Application } from './oauth2.ts';
import { ProtectedBranch, ProtectedTag } from './branch-protection.ts';
import { CommitStatus } from './commit-status.ts';
import { Milestone } from './milestone.ts';
import { Issue, IssueLabel, IssueAssignee, Comment, Reaction, IssueWatch, IssueDependency, TrackedTime, Stopwatch } from './issue.ts';
import { Attachment } from './attachment.ts';
import { Release } from './release.ts';
import { PullRequest, Review, AutoMerge } from './pull.ts';
import { ActorKey, FederationHost, FederatedUser } from './federation.ts';
import { RepoFlag } from './repo-flag.ts';
import { Package, PackageVersion, PackageFile, PackageBlob, PackageProperty } from './package.ts';
import { Notification } from './notification.ts';
import { Action } from './action.ts';
import { CronTask } from './cron.ts';
import { AuthLimit } from './auth-limit.ts';
import { QuotaRule, QuotaGroup, QuotaGroupRule, QuotaGroupMapping } from './quota.ts';
import { Webhook, HookTask } from './webhook.ts';
import { LfsMetaObject, LfsLock } from './lfs.ts';
import { RepoSearchVersion } from './repo-search-version.ts';

/** Every entity the ORM knows. A new entity is added here and gets a migration in model/migrations/. */
export const entities = [
  User,
  UserRedirect,
  EmailAddress,
  AccessToken,
  AccessTokenRepo,
  Repository,
  RepoUnit,
  Collaboration,
  RepoRedirect,
  OrgUser,
  Team,
  TeamUnit,
  TeamUser,
  TeamRepo,
  ResourceIndex,
  ActionTask,
  ActionRunner,
  ActionRunnerToken,
  ActionRun,
  ActionRunJob,
  ActionArtifact,
  Label,
  Star,
  Watch,
  Topic,
  RepoTopic,
  RepoTransfer,
  Mirror,
  PushMirror,
  Follow,
  BlockedUser,
  PublicKey,
  GpgKey,
  GpgKeyImport,
  OAuth2Application,
  ProtectedBranch,
  ProtectedTag,
  CommitStatus,
  Milestone,
  Issue,
  IssueLabel,
  IssueAssignee,
  Comment,
  Reaction,
  IssueWatch,
  IssueDependency,
  TrackedTime,
  Stopwatch,
  Attachment,
  Release,
  PullRequest,
  Review,
  AutoMerge,
  ActionSecret,
  ActionVariable,
  ActorKey,
  FederationHost,
  FederatedUser,
  RepoFlag,
  Package,
  PackageVersion,
  PackageFile,
  PackageBlob,
  PackageProperty,
  Notification,
  Action,
  CronTask,
  QuotaRule,
  QuotaGroup,
  QuotaGroupRule,
  QuotaGroupMapping,
  Webhook,
  HookTask,
  LfsMetaObject,
  LfsLock,
  AuthLimit,
  RepoSearchVersion,
];
