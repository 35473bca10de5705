package service

import "trove/backend/core"

// RecordAgentCall shows the person what an AI agent asked of Trove's MCP
// server and how much it was given: an mcp.call event, which Activity
// lists, and a line in the log, which stays.
func (s *Service) RecordAgentCall(c core.AgentCall) {
	if c.Files == nil {
		c.Files = []string{}
	}
	s.bus.Publish(c)
	s.log.Info("agent call", "tool", c.Tool, "arguments", c.Arguments, "results", c.Results, "bytes", c.Bytes, "error", c.Error)
}
