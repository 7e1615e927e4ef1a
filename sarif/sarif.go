package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// Version is the SARIF version written.
const Version = "2.1.0"

// SchemaURI is the URI of the official SARIF 2.1.0 JSON schema (OASIS
// errata 01), written as the log's $schema.
const SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// Level is the severity of a result.
type Level string

const (
	Error   Level = "error"
	Warning Level = "warning"
	Note    Level = "note"
)

// Log is a SARIF log with its runs.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []*Run `json:"runs"`
}

// Run is one run of a tool.
type Run struct {
	Tool Tool `json:"tool"`
	// AutomationDetails identifies the analysis: code-scanning services
	// take its id, up to the last slash, as the run's category, and want
	// one run per category in an upload.
	AutomationDetails *AutomationDetails `json:"automationDetails,omitempty"`
	ColumnKind        string             `json:"columnKind"`
	Results           []Result           `json:"results"` // empty, not absent, for a clean run
}

// AutomationDetails is a run's runAutomationDetails object.
type AutomationDetails struct {
	ID string `json:"id"`
}

// Tool names the tool of a run.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver describes the tool and its rules.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is one kind of finding (a reportingDescriptor).
type Rule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name,omitempty"`
	ShortDescription     Text          `json:"shortDescription"`
	FullDescription      Text          `json:"fullDescription"`
	Help                 Text          `json:"help"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
}

// Configuration is a rule's default reporting configuration.
type Configuration struct {
	Level Level `json:"level"`
}

// Text is a message in plain text and, optionally, Markdown (a
// multiformatMessageString, or a message).
type Text struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     Level      `json:"level"`
	Message   Text       `json:"message"`
	Locations []Location `json:"locations,omitempty"`
}

// Location is where a result points.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and, when known, a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation names a file by URI.
type ArtifactLocation struct {
	URI string `json:"uri"`
}

// Region is a place in a file; lines and columns start at 1.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// NewRun returns a run of the tool with its rules and no results.
func NewRun(driver Driver) *Run {
	if driver.Rules == nil {
		driver.Rules = []Rule{}
	}
	return &Run{Tool: Tool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: []Result{}}
}

// Add appends a result of rule ruleID (which must be one of the run's
// rules) at the rule's default level, pointing at file, and at line and
// column when line is positive.
func (r *Run) Add(ruleID string, msg Text, file string, line, col int) {
	index, level := -1, Warning
	for i, rule := range r.Tool.Driver.Rules {
		if rule.ID == ruleID {
			index, level = i, rule.DefaultConfiguration.Level
		}
	}
	res := Result{RuleID: ruleID, RuleIndex: index, Level: level, Message: msg}
	if file != "" {
		loc := Location{PhysicalLocation: PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: FileURI(file)}}}
		if line > 0 {
			loc.PhysicalLocation.Region = &Region{StartLine: line, StartColumn: max(col, 0)}
		}
		res.Locations = []Location{loc}
	}
	r.Results = append(r.Results, res)
}

// Write writes a log of the given runs as indented JSON.
func Write(w io.Writer, runs ...*Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Log{Schema: SchemaURI, Version: Version, Runs: runs})
}

// FileURI turns a file path into the URI of a SARIF artifact location: a
// relative path stays relative (code-scanning services resolve it against
// the repository root, so run vsym from there), with forward slashes and
// percent-escapes; an absolute path becomes a file: URI.
func FileURI(path string) string {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: C:/x becomes /C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// url.URL escapes what a URI path may not hold, and protects a
	// first segment with a colon ("a:b/c") with "./", so that it is not
	// read as a scheme.
	return (&url.URL{Path: p}).String()
}
