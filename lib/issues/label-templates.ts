// Forgejo's issue label sets (options/label/Default and Advanced.yaml), offered by `issue_labels` on
// repository creation and by `GET /label/templates`.
export interface LabelTemplate {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
}

const l = (name: string, color: string, description: string, exclusive = false): LabelTemplate => ({ name, color, description, exclusive });

export const LABEL_SETS: Record<string, LabelTemplate[]> = {
  Advanced: [
    l('Kind/Bug', 'ee0701', 'Something is not working'),
    l('Kind/Feature', '0288d1', 'New functionality'),
    l('Kind/Enhancement', '84b6eb', 'Improve existing functionality'),
    l('Kind/Security', '9c27b0', 'This is security issue'),
    l('Kind/Testing', '795548', 'Issue or pull request related to testing'),
    l('Kind/Breaking', 'c62828', "Breaking change that won't be backward compatible"),
    l('Kind/Documentation', '37474f', 'Documentation changes'),
    l('Reviewed/Duplicate', '616161', 'This issue or pull request already exists', true),
    l('Reviewed/Invalid', '546e7a', 'Invalid issue', true),
    l('Reviewed/Confirmed', '795548', 'Issue has been confirmed', true),
    l("Reviewed/Won't Fix", 'eeeeee', "This issue won't be fixed", true),
    l('Status/Need More Info', '424242', 'Feedback is required to reproduce issue or to continue work', true),
    l('Status/Blocked', '880e4f', 'Something is blocking this issue or pull request', true),
    l('Status/Abandoned', '222222', 'Somebody has started to work on this but abandoned work', true),
    l('Priority/Critical', 'b71c1c', 'The priority is critical', true),
    l('Priority/High', 'd32f2f', 'The priority is high', true),
    l('Priority/Medium', 'e64a19', 'The priority is medium', true),
    l('Priority/Low', '4caf50', 'The priority is low', true),
  ],
  Default: [
    l('bug', 'ee0701', 'Something is not working'),
    l('duplicate', 'cccccc', 'This issue or pull request already exists'),
    l('enhancement', '84b6eb', 'New feature'),
    l('help wanted', '128a0c', 'Need some help'),
    l('invalid', 'e6e6e6', 'Something is wrong'),
    l('question', 'cc317c', 'More information is needed'),
    l('wontfix', 'ffffff', "This won't be fixed"),
  ],
};

/** Forgejo matches the set's display name exactly. */
export const labelSet = (name: string): LabelTemplate[] | undefined => (Object.hasOwn(LABEL_SETS, name) ? LABEL_SETS[name] : undefined);
