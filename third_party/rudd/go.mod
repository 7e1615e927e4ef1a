module github.com/dalzilio/rudd

go 1.24
