import type { PanelTemplate } from './types.js';
import { cellsPerHpf, choice, ROUTINE_SECTIONS } from './build.js';

const NOT_SEEN = 'Not seen';

/** Stool routine: physical, chemical and microscopic examination (ova, cysts, trophozoites, cells). */
export const stoolRoutine: PanelTemplate = {
  kind: 'panel',
  id: 'stool_routine',
  name: 'Stool Routine Examination',
  sections: ROUTINE_SECTIONS,
  params: [
    choice('colour', 'Colour', 'physical', ['Brown', 'Yellow', 'Green', 'Black', 'Clay', 'Red'], ['Brown', 'Yellow']),
    choice(
      'consistency',
      'Consistency',
      'physical',
      ['Formed', 'Semi-formed', 'Soft', 'Loose', 'Watery'],
      ['Formed', 'Semi-formed', 'Soft'],
    ),
    choice('mucus', 'Mucus', 'physical', ['Absent', 'Present'], ['Absent']),
    choice('visible_blood', 'Visible blood', 'physical', ['Absent', 'Present'], ['Absent']),
    choice('occult_blood', 'Occult blood', 'chemical', ['Negative', 'Positive'], ['Negative']),
    choice('reducing_sugar', 'Reducing sugar', 'chemical', ['Negative', 'Trace', '1+', '2+', '3+'], ['Negative']),
    {
      key: 'ph',
      label: 'pH',
      section: 'chemical',
      kind: 'number',
      unit: null,
      decimals: 1,
      min: 3,
      max: 10,
      low: 6,
      high: 7.5,
      optional: true,
    },
    choice(
      'ova',
      'Ova',
      'microscopy',
      [
        NOT_SEEN,
        'Ascaris lumbricoides',
        'Hookworm',
        'Trichuris trichiura',
        'Enterobius vermicularis',
        'Hymenolepis nana',
        'Taenia species',
      ],
      [NOT_SEEN],
    ),
    choice(
      'cysts',
      'Cysts',
      'microscopy',
      [NOT_SEEN, 'Entamoeba histolytica', 'Giardia lamblia', 'Entamoeba coli', 'Blastocystis hominis'],
      [NOT_SEEN],
    ),
    choice(
      'trophozoites',
      'Trophozoites',
      'microscopy',
      [NOT_SEEN, 'Entamoeba histolytica', 'Giardia lamblia'],
      [NOT_SEEN],
    ),
    cellsPerHpf('pus_cells', 'Pus cells', 2),
    cellsPerHpf('rbc', 'Red blood cells', 0),
    choice('fat_globules', 'Fat globules', 'microscopy', ['Absent', 'Few', 'Moderate', 'Plenty'], ['Absent']),
    choice('yeast', 'Yeast cells', 'microscopy', ['Absent', 'Present'], ['Absent']),
    { key: 'others', label: 'Others', section: 'microscopy', kind: 'text', maxLength: 200, optional: true },
  ],
};
