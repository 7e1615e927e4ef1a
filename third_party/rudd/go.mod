module github.com/dalzilio/rudd

go 1.16
