/**
 * The peer captures (../shared/fixtures/peer-interop) with what each holds, read off the files by
 * hand: the profile that reads the machine, where it puts the specimen ID, the IDs, how many results,
 * and a few values exactly as the capture has them.
 */
export interface Capture {
  file: string;
  profile: string;
  /** Where the machine put the specimen ID (where the lab's barcode goes). */
  at: string;
  ids: string[];
  /** Results (values that are results, after the profile's ignore rules). */
  results: number;
  /** [code, value, unit] as the capture has them. */
  spot: [string, string, string][];
  /** Results that cannot reach a sample whatever the lab does, by reason (a result with no code). */
  neverLand?: number;
}

export const CAPTURES: Capture[] = [
  {
    file: 'astm_roche_cobas_c111.txt',
    profile: 'standard',
    at: 'O-4',
    ids: ['T20 10134GA D28'],
    results: 1,
    spot: [['413', '40.13', 'g/L']],
  },
  {
    file: 'astm_roche_cobas_c311_h7600.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['28987-S'],
    results: 11,
    spot: [
      ['989/', '129', 'mmol/l'],
      ['962/', '3.3', 'g/dL'],
      ['963/', '0.39', 'mg/dl'],
    ],
  },
  {
    file: 'astm_agappe_mispa_nano.txt',
    profile: 'agappe-mispa',
    at: 'O-4',
    ids: ['7207'],
    results: 14,
    spot: [
      ['ALBUMIN', '4.208448', 'g/dL'],
      ['BILIRUBIN DIRECT', '0.132357', 'mg/dL'],
      ['SGPT', '15.846873', 'IU/L'],
    ],
    // R-3 `^^^F` twice: the machine sent no name for these two tests.
    neverLand: 2,
  },
  {
    file: 'astm_horiba_pentra_xlr.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['S1234'],
    // 21 R records, BAS# and BAS% `-----` with R-9 X (could not be done).
    results: 19,
    spot: [
      ['HGB', '14.0', '1'],
      ['MCV', '88', '1'],
      ['PLT', '234', '1'],
    ],
  },
  {
    file: 'astm_horiba_yumizen_h500.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['AUTO_SID0001'],
    results: 27,
    spot: [
      ['RBC', '4.20', '10E6/uL'],
      ['RDW-SD', '50.0', 'um3'],
      ['PCT', '0.33', '%'],
    ],
  },
  {
    file: 'astm_horiba_yumizen_h500_qc_reframed.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['PX440N'],
    results: 21,
    spot: [
      ['NEU#', '4.20', '10E3/uL'],
      ['WBC', '8.30', '10E3/uL'],
    ],
  },
  {
    file: 'astm_siemens_atellica_hema580.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['81146'],
    results: 51,
    spot: [
      ['IMM#', '1.10', ''],
      ['RHCC', '26.0', ''],
      ['RBC_PLTO', 'RBC_PLTO', ''],
    ],
  },
  {
    file: 'astm_sysmex_xp100.txt',
    profile: 'standard',
    at: 'O-4',
    ids: ['113'],
    results: 20,
    spot: [
      ['WBC', '5.5', '10*3/uL'],
      ['PCT', '0.17', '%'],
      ['MCHC', '41.7', 'g/dL'],
    ],
  },
  {
    file: 'astm_beckman_access2.txt',
    profile: 'standard',
    at: 'O-3',
    ids: ['PTNTAA'],
    results: 1,
    spot: [['VitB12', '>1500', 'pg/mL']],
  },
  {
    file: 'astm_abbott_architect.txt',
    profile: 'abbott-architect',
    at: 'O-3',
    ids: ['SID13'],
    results: 2,
    spot: [
      ['0021^F', '< 1.20', 'mIU/mL'],
      ['0021^I', 'NEGATIVE', ''],
    ],
  },
  {
    file: 'astm_abbott_afinion2.txt',
    profile: 'abbott-afinion',
    at: 'P-4',
    ids: ['3643'],
    results: 1,
    spot: [['HbA1c', '5.9', '%']],
  },
  {
    file: 'astm_siemens_dca_vantage.txt',
    profile: 'siemens-dca-vantage',
    at: 'P-3',
    ids: ['BU24R554'],
    results: 3,
    spot: [
      ['Alb', '63.7', 'mg/L'],
      ['Crt', '230.8', 'mg/dL'],
      ['Ratio', '27.6', 'mg/g'],
    ],
  },
  {
    file: 'astm_cepheid_genexpert.txt',
    profile: 'cepheid-genexpert',
    at: 'O-3',
    ids: ['PR25A137'],
    // MTB, MTB Trace and RIF Resistance are main results; only MTB has a value in this run.
    results: 1,
    spot: [['MTB-RIF^Xpert^MTB', 'NOT DETECTED', '']],
  },
  {
    file: 'hl7_pixcell_hemoscreen.mllp',
    profile: 'pixcell-hemoscreen',
    at: 'PID-2',
    ids: ['35'],
    results: 20,
    spot: [
      ['HGB', '14.25', 'g/dL'],
      ['MCHC', '0.00', 'g/dL'],
      ['EOS%', '1.20', '%'],
    ],
  },
  {
    file: 'hl7_mindray_bc5130.mllp',
    profile: 'mindray-hl7',
    at: 'OBR-3',
    ids: ['1'],
    results: 25,
    spot: [
      ['6690-2', '7.52', '10*3/uL'],
      ['10002', '0.254', '%'],
      ['32207-3', '15.5', ''],
    ],
  },
  {
    file: 'hl7_snibe_maglumi_oul_r22.mllp',
    profile: 'standard',
    at: 'SPM-2',
    ids: ['1', '10', '11', '12', '13', '13re', '14', '15', '16'],
    results: 25,
    spot: [
      ['TSH', '1.08', 'uIU/mL'],
      ['25-OH VD II', '28.1', 'ng/mL'],
      ['FT4', '1.30', 'ng/dL'],
    ],
  },
  {
    file: 'hl7_tisenc_accre8.mllp',
    profile: 'standard',
    at: 'OBR-3',
    ids: ['20240831001', '20240801001'],
    results: 3,
    spot: [
      ['23', '83.961', 'nmol/L'],
      ['21', '1.1441', 'nmol/L'],
      ['20', '2.334', 'μIU/mL'],
    ],
  },
  {
    file: 'hl7_wondfo_finecare_plus.mllp',
    profile: 'wondfo-finecare',
    at: 'PID-5',
    ids: ['patientdddd', 'patiente'],
    results: 6,
    spot: [
      ['HbA1c', '12.6', '%'],
      ['HBA1C(IFCC)', '114.2', 'mmol/mol'],
      ['eGA(ADA)', '105.4', 'md/dl'],
    ],
  },
];
