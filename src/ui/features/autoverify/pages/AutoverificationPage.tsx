import { useState } from 'react';
import { GitCompare, Plus } from 'lucide-react';
import type { AutoverifyStop, RuleSet } from '@shared/schemas/autoverify';
import { Button, Card, ConfirmDialog, LinkButton, PageHeader, queryState } from '@/components';
import { useScreen } from '@/lib/screens';
import { useCurrentUser } from '@/lib/session';
import {
  useApproveRuleSetMutation,
  useAutoverifyState,
  useCatalogueTests,
  useNewVersionMutation,
  useResumeMutation,
  useRuleSets,
  versionName,
} from '../api';
import { ActivateDialog } from '../components/ActivateDialog';
import { RuleSetEditorDialog } from '../components/RuleSetEditorDialog';
import { RuleSetTable } from '../components/RuleSetTable';
import { StatePanel } from '../components/StatePanel';
import { StopDialog } from '../components/StopDialog';

const SUBTITLE = 'Rules the lab writes for releasing normal results without a click, and the switches that stop them';

/** Autoverification: the rule set versions, their approval and activation, and the stops. */
export default function AutoverificationPage() {
  // The screen's declaration asks view_results: without it the app shows the no-access panel.
  return <Autoverification title={useScreen().title} />;
}

type Dialogs =
  | { type: 'none' }
  | { type: 'edit'; subject: RuleSet | 'new' }
  | { type: 'approve'; ruleSet: RuleSet }
  | { type: 'activate'; ruleSet: RuleSet }
  | { type: 'stop'; scope: 'lab' | 'test' }
  | { type: 'resume'; stop: AutoverifyStop };

function Autoverification({ title }: { title: string }) {
  const me = useCurrentUser();
  const canDraft = me.permissions.includes('verify_results');
  const canApprove = me.permissions.includes('approve_autoverification');
  const state = useAutoverifyState();
  const ruleSets = useRuleSets();
  const [dialog, setDialog] = useState<Dialogs>({ type: 'none' });
  const tests = useCatalogueTests(dialog.type === 'stop');
  const approve = useApproveRuleSetMutation();
  const newVersion = useNewVersionMutation();
  const resume = useResumeMutation();
  const close = () => setDialog({ type: 'none' });
  const inForce = state.data?.in_force;
  const inForceName = inForce
    ? `${ruleSets.data?.find((r) => r.id === inForce.rule_set_id)?.name ?? 'the rule set'} v${inForce.version} (${inForce.mode})`
    : null;

  return (
    <>
      <PageHeader
        title={title}
        subtitle={SUBTITLE}
        actions={
          <>
            <LinkButton variant="outline" to="/autoverification/comparison">
              <GitCompare />
              Shadow Comparison
            </LinkButton>
            {canDraft && (
              <Button onClick={() => setDialog({ type: 'edit', subject: 'new' })}>
                <Plus />
                New Rule Set
              </Button>
            )}
          </>
        }
      />
      <StatePanel
        state={state.data}
        ruleSets={ruleSets.data}
        {...queryState(state)}
        canStop={canDraft}
        canResume={canApprove}
        onStopLab={() => setDialog({ type: 'stop', scope: 'lab' })}
        onStopTest={() => setDialog({ type: 'stop', scope: 'test' })}
        onResume={(stop) => setDialog({ type: 'resume', stop })}
      />
      <Card className="min-w-0">
        <RuleSetTable
          rows={ruleSets.data}
          state={state.data}
          {...queryState(ruleSets)}
          canDraft={canDraft}
          canApprove={canApprove}
          onEdit={(r) => setDialog({ type: 'edit', subject: r })}
          onNewVersion={(r) => newVersion.mutate(r)}
          onApprove={(r) => setDialog({ type: 'approve', ruleSet: r })}
          onActivate={(r) => setDialog({ type: 'activate', ruleSet: r })}
        />
      </Card>

      <RuleSetEditorDialog
        subject={dialog.type === 'edit' ? dialog.subject : null}
        onOpenChange={(o) => !o && close()}
      />
      <ConfirmDialog
        open={dialog.type === 'approve'}
        onOpenChange={(o) => !o && close()}
        title="Approve rule set"
        message={
          dialog.type === 'approve'
            ? `Approve ${versionName(dialog.ruleSet)} in your name? An approved version never changes (a change is a new version), and a result it releases names it and you as its verifier. It runs only once activated.`
            : ''
        }
        confirmLabel="Approve"
        busyLabel="Approving..."
        destructive={false}
        busy={approve.isPending}
        onConfirm={() => {
          if (dialog.type === 'approve') approve.mutate(dialog.ruleSet, { onSettled: close });
        }}
      />
      <ActivateDialog
        ruleSet={dialog.type === 'activate' ? dialog.ruleSet : null}
        onOpenChange={(o) => !o && close()}
        inForce={inForceName}
      />
      <StopDialog
        scope={dialog.type === 'stop' ? dialog.scope : null}
        onOpenChange={(o) => !o && close()}
        tests={tests.data ?? []}
        stoppedTestIds={(state.data?.stops ?? []).flatMap((s) => (s.test_id === null ? [] : [s.test_id]))}
      />
      <ConfirmDialog
        open={dialog.type === 'resume'}
        onOpenChange={(o) => !o && close()}
        title="Resume autoverification"
        message={
          dialog.type === 'resume'
            ? dialog.stop.test_id === null
              ? `Resume for the lab? From the next result on, ${inForceName ?? 'the rule set in force'} judges every result again${inForce?.mode === 'live' ? ' and releases those that pass' : ''}.`
              : `Resume for ${dialog.stop.test_name}? From its next result on, the rule set in force judges it again.`
            : ''
        }
        confirmLabel="Resume"
        busyLabel="Resuming..."
        destructive={false}
        busy={resume.isPending}
        onConfirm={() => {
          if (dialog.type === 'resume')
            resume.mutate(dialog.stop.test_id === null ? {} : { test_id: dialog.stop.test_id }, { onSettled: close });
        }}
      />
    </>
  );
}
