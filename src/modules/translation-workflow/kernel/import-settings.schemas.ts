import { Type } from 'typebox';

/**
 * The spec's import settings definitions (FileImportSettingsCreateDto, FileImportSettingsDto and
 * the per-format settings they hold), as TypeBox, generated from the published yaml's definitions.
 * The service stores the document a project is given and returns it; the file filters read the
 * parts they support.
 */

const AndroidSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    icuSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'AndroidSettingsDto' },
);

const CsvSettingsDto = Type.Object(
  {
    delimiter: Type.Optional(Type.String()),
    delimiterType: Type.Optional(
      Type.Union([Type.Literal('TAB'), Type.Literal('COMMA'), Type.Literal('SEMICOLON'), Type.Literal('OTHER')]),
    ),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    importColumns: Type.Optional(Type.String()),
    contextNoteColumns: Type.Optional(Type.String()),
    contextKeyColumn: Type.Optional(Type.String()),
    maxLenColumn: Type.Optional(Type.String()),
    importRows: Type.Optional(Type.String()),
  },
  { title: 'CsvSettingsDto' },
);

const DitaSettingsDto = Type.Object(
  {
    includeTags: Type.Optional(Type.String()),
    excludeTags: Type.Optional(Type.String()),
    inlineTags: Type.Optional(Type.String()),
    inlineTagsNonTranslatable: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'DitaSettingsDto' },
);

const DocBookSettingsDto = Type.Object(
  {
    includeTags: Type.Optional(Type.String()),
    excludeTags: Type.Optional(Type.String()),
    inlineTags: Type.Optional(Type.String()),
    inlineTagsNonTranslatable: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'DocBookSettingsDto' },
);

const DocSettingsDto = Type.Object(
  {
    comments: Type.Optional(Type.Boolean()),
    index: Type.Optional(Type.Boolean()),
    other: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    hyperlinkTarget: Type.Optional(Type.Boolean()),
    joinSimilarRuns: Type.Optional(Type.Boolean()),
    targetFont: Type.Optional(Type.String()),
    properties: Type.Optional(Type.Boolean()),
    hidden: Type.Optional(Type.Boolean()),
    headerFooter: Type.Optional(Type.Boolean()),
  },
  { title: 'DocSettingsDto' },
);

const HtmlSettingsDto = Type.Object(
  {
    breakTagCreatesSegment: Type.Optional(Type.Boolean()),
    unknownTagCreatesTag: Type.Optional(Type.Boolean()),
    preserveWhitespace: Type.Optional(Type.Boolean()),
    importComments: Type.Optional(Type.Boolean()),
    excludeElements: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
    charEntitiesToTags: Type.Optional(Type.String()),
    translateMetaTagRegexp: Type.Optional(Type.String()),
    importDefaultMetaTags: Type.Optional(Type.Boolean()),
    translatableAttributes: Type.Optional(Type.String()),
    importDefaultAttributes: Type.Optional(Type.Boolean()),
    nonTranslatableInlineElements: Type.Optional(Type.String()),
    translatableInlineElements: Type.Optional(Type.String()),
    updateLang: Type.Optional(Type.Boolean()),
    escapeDisabled: Type.Optional(Type.Boolean()),
  },
  { title: 'HtmlSettingsDto' },
);

const IdmlSettingsDto = Type.Object(
  {
    extractNotes: Type.Optional(Type.Boolean()),
    simplifyCodes: Type.Optional(Type.Boolean()),
    extractMasterSpreads: Type.Optional(Type.Boolean()),
    extractLockedLayers: Type.Optional(Type.Boolean()),
    extractInvisibleLayers: Type.Optional(Type.Boolean()),
    extractHiddenConditionalText: Type.Optional(Type.Boolean()),
    extractHyperlinks: Type.Optional(Type.Boolean()),
    keepKerning: Type.Optional(Type.Boolean()),
    keepTracking: Type.Optional(Type.Boolean()),
    targetFont: Type.Optional(Type.String()),
    replaceFont: Type.Optional(Type.Boolean()),
    removeXmlElements: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    extractCrossReferenceFormats: Type.Optional(Type.Boolean()),
    extractVariables: Type.Optional(Type.Boolean()),
  },
  { title: 'IdmlSettingsDto' },
);

const JsonSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    icuSubFilter: Type.Optional(Type.Boolean()),
    excludeKeyRegexp: Type.Optional(Type.String()),
    includeKeyRegexp: Type.Optional(Type.String()),
    contextNotePath: Type.Optional(Type.String()),
    maxLenPath: Type.Optional(Type.String()),
    contextKeyPath: Type.Optional(Type.String()),
  },
  { title: 'JsonSettingsDto' },
);

const MacSettingsDto = Type.Object(
  {
    htmlSubfilter: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    icuSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'MacSettingsDto' },
);

const MdSettingsDto = Type.Object(
  {
    hardLineBreaksSegments: Type.Optional(Type.Boolean()),
    preserveWhiteSpaces: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    customElements: Type.Optional(Type.String()),
    ignoredBlockPrefixes: Type.Optional(Type.String()),
    flavor: Type.Optional(Type.Union([Type.Literal('PLAIN'), Type.Literal('PHP'), Type.Literal('GITHUB')])),
    processJekyllFrontMatter: Type.Optional(Type.Boolean()),
    extractCodeBlocks: Type.Optional(Type.Boolean()),
    notEscapedCharacters: Type.Optional(Type.String()),
    excludeCodeElements: Type.Optional(Type.Boolean()),
  },
  { title: 'MdSettingsDto' },
);

const MifSettingsDto = Type.Object(
  {
    extractBodyPages: Type.Optional(Type.Boolean()),
    extractReferencePages: Type.Optional(Type.Boolean()),
    extractMasterPages: Type.Optional(Type.Boolean()),
    extractHiddenPages: Type.Optional(Type.Boolean()),
    extractVariables: Type.Optional(Type.Boolean()),
    extractIndexMarkers: Type.Optional(Type.Boolean()),
    extractLinks: Type.Optional(Type.Boolean()),
    extractXRefDef: Type.Optional(Type.Boolean()),
    extractPgfNumFormat: Type.Optional(Type.Boolean()),
    extractCustomReferencePages: Type.Optional(Type.Boolean()),
    extractDefaultReferencePages: Type.Optional(Type.Boolean()),
    extractUsedVariables: Type.Optional(Type.Boolean()),
    extractHiddenCondText: Type.Optional(Type.Boolean()),
    extractUsedXRefDef: Type.Optional(Type.Boolean()),
    extractUsedPgfNumFormat: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'MifSettingsDto' },
);

const MultilingualXlsSettingsDto = Type.Object(
  {
    sourceColumn: Type.Optional(Type.String()),
    targetColumns: Type.Optional(Type.Record(Type.String(), Type.String())),
    contextNoteColumn: Type.Optional(Type.String()),
    contextKeyColumn: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    segmentation: Type.Optional(Type.Boolean()),
    importRows: Type.Optional(Type.String()),
    maxLenColumn: Type.Optional(Type.String()),
    nonEmptySegmentAction: Type.Optional(
      Type.Union([Type.Literal('NONE'), Type.Literal('CONFIRM'), Type.Literal('LOCK'), Type.Literal('CONFIRM_LOCK')]),
    ),
    saveConfirmedSegmentsToTm: Type.Optional(Type.Boolean()),
  },
  { title: 'MultilingualXlsSettingsDto' },
);

const MultilingualCsvSettingsDto = Type.Object(
  {
    sourceColumns: Type.Optional(Type.String()),
    targetColumns: Type.Optional(Type.String()),
    contextNoteColumns: Type.Optional(Type.String()),
    contextKeyColumns: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    segmentation: Type.Optional(Type.Boolean()),
    delimiter: Type.Optional(Type.String({ maxLength: 255 })),
    delimiterType: Type.Optional(
      Type.Union([Type.Literal('TAB'), Type.Literal('COMMA'), Type.Literal('SEMICOLON'), Type.Literal('OTHER')]),
    ),
    importRows: Type.Optional(Type.String()),
    maxLenColumns: Type.Optional(Type.String()),
    allTargetColumns: Type.Optional(Type.Record(Type.String(), Type.String())),
    nonEmptySegmentAction: Type.Optional(
      Type.Union([Type.Literal('NONE'), Type.Literal('CONFIRM'), Type.Literal('LOCK'), Type.Literal('CONFIRM_LOCK')]),
    ),
    saveConfirmedSegmentsToTm: Type.Optional(Type.Boolean()),
  },
  { title: 'MultilingualCsvSettingsDto' },
);

const MultilingualXmlSettingsDto = Type.Object(
  {
    translatableElementsXPath: Type.Optional(Type.String()),
    sourceElementsXPath: Type.Optional(Type.String()),
    targetElementsXPaths: Type.Optional(Type.Record(Type.String(), Type.String())),
    inlineElementsNonTranslatableXPath: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
    segmentation: Type.Optional(Type.Boolean()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    contextKeyXPath: Type.Optional(Type.String()),
    contextNoteXPath: Type.Optional(Type.String()),
    maxLenXPath: Type.Optional(Type.String()),
    preserveWhitespace: Type.Optional(Type.Boolean()),
    preserveCharEntities: Type.Optional(Type.String()),
    xslUrl: Type.Optional(Type.String()),
    xslFile: Type.Optional(Type.String()),
    nonEmptySegmentAction: Type.Optional(
      Type.Union([Type.Literal('NONE'), Type.Literal('CONFIRM'), Type.Literal('LOCK'), Type.Literal('CONFIRM_LOCK')]),
    ),
    saveConfirmedSegmentsToTm: Type.Optional(Type.Boolean()),
    icuSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'MultilingualXmlSettingsDto' },
);

const PdfSettingsDto = Type.Object(
  {
    filter: Type.Optional(Type.Union([Type.Literal('TRANS_PDF'), Type.Literal('DEFAULT')])),
  },
  { title: 'PdfSettingsDto' },
);

const PhpSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'PhpSettingsDto' },
);

const PoSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    exportMultiline: Type.Optional(Type.Boolean()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
    segment: Type.Optional(Type.Boolean()),
    markupSubFilterTranslatable: Type.Optional(Type.String()),
    markupSubFilterNonTranslatable: Type.Optional(Type.String()),
    contextKeySuffixType: Type.Optional(
      Type.Union([Type.Literal('MSGCTXT'), Type.Literal('MSGID'), Type.Literal('MSGCTXT_AND_MSGID'), Type.Literal('MSGCTXT_OR_MSGID')]),
    ),
    saveConfirmedSegments: Type.Optional(Type.Boolean()),
    importSetSegmentConfirmedWhen: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    importSetSegmentLockedWhen: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    exportConfirmedLocked: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    exportConfirmedNotLocked: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    exportNotConfirmedLocked: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    exportNotConfirmedNotLocked: Type.Optional(Type.Union([Type.Literal('FUZZY'), Type.Literal('NONFUZZY')])),
    icuSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'PoSettingsDto' },
);

const PptSettingsDto = Type.Object(
  {
    hiddenSlides: Type.Optional(Type.Boolean()),
    other: Type.Optional(Type.Boolean()),
    notes: Type.Optional(Type.Boolean()),
    masterSlides: Type.Optional(Type.Boolean()),
  },
  { title: 'PptSettingsDto' },
);

const PropertiesSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'PropertiesSettingsDto' },
);

const PsdSettingsDto = Type.Object(
  {
    extractHiddenLayers: Type.Optional(Type.Boolean()),
    extractLockedLayers: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'PsdSettingsDto' },
);

const QuarkTagSettingsDto = Type.Object(
  {
    removeKerningTrackingTags: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'QuarkTagSettingsDto' },
);

const ResxSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    htmlSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'ResxSettingsDto' },
);

const SdlXlfSettingsDto = Type.Object(
  {
    icuSubFilter: Type.Optional(Type.Boolean()),
    skipImportRules: Type.Optional(Type.String()),
    importAsConfirmedRules: Type.Optional(Type.String()),
    importAsLockedRules: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndNotLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndNotLocked: Type.Optional(Type.String()),
    saveConfirmedSegments: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'SdlXlfSettingsDto' },
);

const MetadataField = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('CLIENT'), Type.Literal('DOMAIN'), Type.Literal('SUBDOMAIN'), Type.Literal('FILENAME')])),
  },
  { title: 'MetadataField' },
);

const MetadataPrioritySettingsDto = Type.Object(
  {
    prioritizedFields: Type.Array(MetadataField, { maxItems: 1000 }),
  },
  { title: 'MetadataPrioritySettingsDto' },
);

const TMMatchSettingsDto = Type.Object(
  {
    contextType: Type.Optional(
      Type.Union([Type.Literal('AUTO'), Type.Literal('PREV_AND_NEXT_SEGMENT'), Type.Literal('SEGMENT_KEY'), Type.Literal('NO_CONTEXT')]),
    ),
    prevOrNextSegment: Type.Optional(Type.Boolean()),
    penalizeMultiContextMatch: Type.Optional(Type.Boolean()),
    ignoreTagMetadata: Type.Optional(Type.Boolean()),
    metadataPriority: Type.Optional(MetadataPrioritySettingsDto),
  },
  { title: 'TMMatchSettingsDto' },
);

const TtxSettingsDto = Type.Object(
  {
    saveConfirmedSegments: Type.Optional(Type.Boolean()),
  },
  { title: 'TtxSettingsDto' },
);

const TxtSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    translatableTextRegexp: Type.Optional(Type.String()),
    contextKey: Type.Optional(Type.String()),
    regexpCapturingGroups: Type.Optional(Type.Boolean()),
  },
  { title: 'TxtSettingsDto' },
);

const Xlf2SettingsDto = Type.Object(
  {
    icuSubFilter: Type.Optional(Type.Boolean()),
    importNotes: Type.Optional(Type.Boolean()),
    saveConfirmedSegments: Type.Optional(Type.Boolean()),
    segmentation: Type.Optional(Type.Boolean()),
    lineBreakTags: Type.Optional(Type.Boolean()),
    preserveWhitespace: Type.Optional(Type.Boolean()),
    copySourceToTargetIfNotImported: Type.Optional(Type.Boolean()),
    respectTranslateAttr: Type.Optional(Type.Boolean()),
    skipImportRules: Type.Optional(Type.String()),
    importAsConfirmedRules: Type.Optional(Type.String()),
    importAsLockedRules: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndNotLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndNotLocked: Type.Optional(Type.String()),
    contextKeyXPath: Type.Optional(Type.String()),
    preserveCharEntities: Type.Optional(Type.String()),
    xslUrl: Type.Optional(Type.String()),
    xslFile: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'Xlf2SettingsDto' },
);

const XlfSettingsDto = Type.Object(
  {
    icuSubFilter: Type.Optional(Type.Boolean()),
    importNotes: Type.Optional(Type.Boolean()),
    segmentation: Type.Optional(Type.Boolean()),
    skipImportRules: Type.Optional(Type.String()),
    importAsConfirmedRules: Type.Optional(Type.String()),
    importAsLockedRules: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenConfirmedAndNotLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndLocked: Type.Optional(Type.String()),
    exportAttrsWhenNotConfirmedAndNotLocked: Type.Optional(Type.String()),
    saveConfirmedSegments: Type.Optional(Type.Boolean()),
    lineBreakTags: Type.Optional(Type.Boolean()),
    preserveWhitespace: Type.Optional(Type.Boolean()),
    contextType: Type.Optional(Type.String()),
    preserveCharEntities: Type.Optional(Type.String()),
    copySourceToTargetIfNotImported: Type.Optional(Type.Boolean()),
    importXPath: Type.Optional(Type.String()),
    importAsConfirmedXPath: Type.Optional(Type.String()),
    importAsLockedXPath: Type.Optional(Type.String()),
    xslUrl: Type.Optional(Type.String()),
    xslFile: Type.Optional(Type.String()),
    tagRegexp: Type.Optional(Type.String()),
  },
  { title: 'XlfSettingsDto' },
);

const XlsSettingsDto = Type.Object(
  {
    sheetNames: Type.Optional(Type.Boolean()),
    hidden: Type.Optional(Type.Boolean()),
    comments: Type.Optional(Type.Boolean()),
    other: Type.Optional(Type.Boolean()),
    cellFlow: Type.Optional(
      Type.Union([Type.Literal('DownRight'), Type.Literal('RightDown'), Type.Literal('DownLeft'), Type.Literal('LeftDown')]),
    ),
    htmlSubfilter: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    specifiedColumns: Type.Optional(Type.String()),
  },
  { title: 'XlsSettingsDto' },
);

const XmlSettingsDto = Type.Object(
  {
    rulesFormat: Type.Optional(Type.Union([Type.Literal('PLAIN'), Type.Literal('XPATH')])),
    includeElementsPlain: Type.Optional(Type.String()),
    excludeElementsPlain: Type.Optional(Type.String()),
    includeAttributesPlain: Type.Optional(Type.String()),
    excludeAttributesPlain: Type.Optional(Type.String()),
    inlineElementsNonTranslatablePlain: Type.Optional(Type.String()),
    inlineElementsPlain: Type.Optional(Type.String()),
    inlineElementsAutoPlain: Type.Optional(Type.Boolean()),
    htmlSubfilterElementsPlain: Type.Optional(Type.String()),
    entities: Type.Optional(Type.Boolean()),
    lockElementsPlain: Type.Optional(Type.String()),
    lockAttributesPlain: Type.Optional(Type.String()),
    includeXPath: Type.Optional(Type.String()),
    inlineElementsXpath: Type.Optional(Type.String()),
    inlineElementsNonTranslatableXPath: Type.Optional(Type.String()),
    inlineElementsAutoXPath: Type.Optional(Type.Boolean()),
    htmlSubfilterElementsXpath: Type.Optional(Type.String()),
    lockXPath: Type.Optional(Type.String()),
    segmentation: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    contextNoteXpath: Type.Optional(Type.String()),
    maxLenXPath: Type.Optional(Type.String()),
    preserveWhitespaceXPath: Type.Optional(Type.String()),
    preserveCharEntities: Type.Optional(Type.String()),
    contextKeyXPath: Type.Optional(Type.String()),
    xslUrl: Type.Optional(Type.String()),
    xslFile: Type.Optional(Type.String()),
    importComments: Type.Optional(Type.Boolean()),
    icuSubFilter: Type.Optional(Type.Boolean()),
    assistantProfile: Type.Optional(Type.String()),
  },
  { title: 'XmlSettingsDto' },
);

const YamlSettingsDto = Type.Object(
  {
    htmlSubFilter: Type.Optional(Type.Boolean()),
    tagRegexp: Type.Optional(Type.String()),
    includeKeyRegexp: Type.Optional(Type.String()),
    excludeValueRegexp: Type.Optional(Type.String()),
    contextPath: Type.Optional(Type.String()),
    contextKeyPath: Type.Optional(Type.String()),
    markdownSubfilter: Type.Optional(Type.Boolean()),
    updateRootElementLang: Type.Optional(Type.Boolean()),
    localeFormat: Type.Optional(
      Type.Union([
        Type.Literal('MEMSOURCE'),
        Type.Literal('RFC_5646'),
        Type.Literal('ANDROID_QUALIFIER'),
        Type.Literal('ANDROID_QUALIFIER_BCP'),
      ]),
    ),
    indentEmptyLinesInString: Type.Optional(Type.Boolean()),
    icuSubFilter: Type.Optional(Type.Boolean()),
  },
  { title: 'YamlSettingsDto' },
);

const AsciidocSettingsDto = Type.Object(
  {
    tagRegexp: Type.Optional(Type.String()),
    htmlInPassthrough: Type.Optional(Type.Boolean()),
    nontranslatableMonospaceCustomStylesRegexp: Type.Optional(Type.String()),
    extractCustomDocumentAttributeNameRegexp: Type.Optional(Type.String()),
    extractBtnMenuLabels: Type.Optional(Type.Boolean()),
  },
  { title: 'AsciidocSettingsDto' },
);

const FileImportSettingsCreateDto = Type.Object(
  {
    inputCharset: Type.Optional(Type.String()),
    outputCharset: Type.Optional(Type.String()),
    zipCharset: Type.Optional(Type.String()),
    fileFormat: Type.Optional(
      Type.Union([
        Type.Literal('doc'),
        Type.Literal('ppt'),
        Type.Literal('xls'),
        Type.Literal('xlf'),
        Type.Literal('xlf2'),
        Type.Literal('sdlxlif'),
        Type.Literal('ttx'),
        Type.Literal('html'),
        Type.Literal('xml'),
        Type.Literal('mif'),
        Type.Literal('tmx'),
        Type.Literal('idml'),
        Type.Literal('dita'),
        Type.Literal('json'),
        Type.Literal('po'),
        Type.Literal('ts'),
        Type.Literal('icml'),
        Type.Literal('yaml'),
        Type.Literal('properties'),
        Type.Literal('csv'),
        Type.Literal('android_string'),
        Type.Literal('desktop_entry'),
        Type.Literal('mac_strings'),
        Type.Literal('pdf'),
        Type.Literal('windows_rc'),
        Type.Literal('xml_properties'),
        Type.Literal('joomla_ini'),
        Type.Literal('magento_csv'),
        Type.Literal('dtd'),
        Type.Literal('mozilla_properties'),
        Type.Literal('plist'),
        Type.Literal('plain_text'),
        Type.Literal('srt'),
        Type.Literal('sub'),
        Type.Literal('sbv'),
        Type.Literal('wiki'),
        Type.Literal('resx'),
        Type.Literal('resjson'),
        Type.Literal('chrome_json'),
        Type.Literal('epub'),
        Type.Literal('svg'),
        Type.Literal('docbook'),
        Type.Literal('wpxliff'),
        Type.Literal('multiling_xml'),
        Type.Literal('multiling_xls'),
        Type.Literal('mqxliff'),
        Type.Literal('php'),
        Type.Literal('psd'),
        Type.Literal('tag'),
        Type.Literal('md'),
        Type.Literal('vtt'),
      ]),
    ),
    autodetectMultilingualFiles: Type.Optional(Type.Boolean()),
    targetLength: Type.Optional(Type.Boolean()),
    targetLengthMax: Type.Optional(Type.Integer()),
    targetLengthPercent: Type.Optional(Type.Boolean()),
    targetLengthPercentValue: Type.Optional(Type.Number()),
    segmentationRuleId: Type.Optional(Type.Integer()),
    targetSegmentationRuleId: Type.Optional(Type.Integer()),
    android: Type.Optional(AndroidSettingsDto),
    csv: Type.Optional(CsvSettingsDto),
    dita: Type.Optional(DitaSettingsDto),
    docBook: Type.Optional(DocBookSettingsDto),
    doc: Type.Optional(DocSettingsDto),
    html: Type.Optional(HtmlSettingsDto),
    idml: Type.Optional(IdmlSettingsDto),
    json: Type.Optional(JsonSettingsDto),
    mac: Type.Optional(MacSettingsDto),
    md: Type.Optional(MdSettingsDto),
    mif: Type.Optional(MifSettingsDto),
    multilingualXls: Type.Optional(MultilingualXlsSettingsDto),
    multilingualCsv: Type.Optional(MultilingualCsvSettingsDto),
    multilingualXml: Type.Optional(MultilingualXmlSettingsDto),
    pdf: Type.Optional(PdfSettingsDto),
    php: Type.Optional(PhpSettingsDto),
    po: Type.Optional(PoSettingsDto),
    ppt: Type.Optional(PptSettingsDto),
    properties: Type.Optional(PropertiesSettingsDto),
    psd: Type.Optional(PsdSettingsDto),
    quarkTag: Type.Optional(QuarkTagSettingsDto),
    resx: Type.Optional(ResxSettingsDto),
    sdlXlf: Type.Optional(SdlXlfSettingsDto),
    tmMatch: Type.Optional(TMMatchSettingsDto),
    ttx: Type.Optional(TtxSettingsDto),
    txt: Type.Optional(TxtSettingsDto),
    xlf2: Type.Optional(Xlf2SettingsDto),
    xlf: Type.Optional(XlfSettingsDto),
    xls: Type.Optional(XlsSettingsDto),
    xml: Type.Optional(XmlSettingsDto),
    yaml: Type.Optional(YamlSettingsDto),
    asciidoc: Type.Optional(AsciidocSettingsDto),
  },
  { title: 'FileImportSettingsCreateDto' },
);

const SegRuleReference = Type.Object(
  {
    id: Type.Optional(Type.String()),
    uid: Type.Optional(Type.String()),
    language: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    filename: Type.Optional(Type.String()),
    primary: Type.Optional(Type.Boolean()),
  },
  { title: 'SegRuleReference' },
);

const FileImportSettingsDto = Type.Object(
  {
    inputCharset: Type.Optional(Type.String()),
    outputCharset: Type.Optional(Type.String()),
    zipCharset: Type.Optional(Type.String()),
    fileFormat: Type.Optional(Type.String()),
    autodetectMultilingualFiles: Type.Optional(Type.Boolean()),
    targetLength: Type.Optional(Type.Boolean()),
    targetLengthMax: Type.Optional(Type.Integer()),
    targetLengthPercent: Type.Optional(Type.Boolean()),
    targetLengthPercentValue: Type.Optional(Type.Number()),
    android: Type.Optional(AndroidSettingsDto),
    idml: Type.Optional(IdmlSettingsDto),
    xls: Type.Optional(XlsSettingsDto),
    multilingualXml: Type.Optional(MultilingualXmlSettingsDto),
    php: Type.Optional(PhpSettingsDto),
    resx: Type.Optional(ResxSettingsDto),
    json: Type.Optional(JsonSettingsDto),
    html: Type.Optional(HtmlSettingsDto),
    multilingualXls: Type.Optional(MultilingualXlsSettingsDto),
    multilingualCsv: Type.Optional(MultilingualCsvSettingsDto),
    csv: Type.Optional(CsvSettingsDto),
    txt: Type.Optional(TxtSettingsDto),
    xlf2: Type.Optional(Xlf2SettingsDto),
    quarkTag: Type.Optional(QuarkTagSettingsDto),
    pdf: Type.Optional(PdfSettingsDto),
    tmMatch: Type.Optional(TMMatchSettingsDto),
    xml: Type.Optional(XmlSettingsDto),
    mif: Type.Optional(MifSettingsDto),
    properties: Type.Optional(PropertiesSettingsDto),
    doc: Type.Optional(DocSettingsDto),
    xlf: Type.Optional(XlfSettingsDto),
    sdlXlf: Type.Optional(SdlXlfSettingsDto),
    ttx: Type.Optional(TtxSettingsDto),
    ppt: Type.Optional(PptSettingsDto),
    yaml: Type.Optional(YamlSettingsDto),
    dita: Type.Optional(DitaSettingsDto),
    docBook: Type.Optional(DocBookSettingsDto),
    po: Type.Optional(PoSettingsDto),
    mac: Type.Optional(MacSettingsDto),
    md: Type.Optional(MdSettingsDto),
    psd: Type.Optional(PsdSettingsDto),
    asciidoc: Type.Optional(AsciidocSettingsDto),
    segRule: Type.Optional(SegRuleReference),
    targetSegRule: Type.Optional(SegRuleReference),
  },
  { title: 'FileImportSettingsDto' },
);

export { FileImportSettingsCreateDto, FileImportSettingsDto };
