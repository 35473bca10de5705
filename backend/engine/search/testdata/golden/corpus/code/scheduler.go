// Package scheduler pauses and resumes the indexing queue by rules: time windows, battery and CPU load.
package scheduler
