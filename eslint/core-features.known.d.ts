export declare const knownEdges: string[];
export declare const knownInternals: string[];
