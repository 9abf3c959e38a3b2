/**
 * missing-required-key: a key the tool cannot do without (other than `distributed_type`, which has
 * its own rule).
 */
import { code, pathLabel } from './helpers';
import { defineRule } from './rule';

export default defineRule({
  id: 'missing-required-key',
  severity: 'error',
  formats: 'all',
  docs: {
    summary: 'A required key is missing.',
    why: 'Some keys have no default: a SageMaker config without `ec2_instance_type` or `iam_role_name` fails to load (`missing 1 required positional argument`).',
    bad: "compute_environment: AMAZON_SAGEMAKER\ndistributed_type: DATA_PARALLEL\nec2_instance_type: ml.p4d.24xlarge\n",
    good: "compute_environment: AMAZON_SAGEMAKER\ndistributed_type: DATA_PARALLEL\nec2_instance_type: ml.p4d.24xlarge\niam_role_name: training-role\n",
  },
  check(ctx) {
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      if (issue.kind !== 'missing-key' || (issue.parent.length === 0 && issue.key === 'distributed_type')) return;
      const where = issue.parent.length ? ` in ${pathLabel(issue.parent)}` : '';
      ctx.report({ at: issue.parent, message: `${code(issue.key)} is required${where} and has no default: ${ctx.tool} fails to load the file without it. Add it.` });
    });
  },
});
